"""Minimal DPO on a toy preference set.

Policy and reference start from the same SFT weights; only the policy is
trained. Each example is prompt + response, and only the response tokens
count towards the sequence log-probs.

    python l_dpo_reference.py --epochs 2 --beta 0.1
"""
import argparse
import copy
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

VOCAB = 48
PAD = 0
BOS = 1
SEP = 2
IGNORE = -100


class TinyCausalLM(nn.Module):
    def __init__(self, vocab=VOCAB, dim=64, n_layers=2, n_heads=4, max_len=64):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim, padding_idx=PAD)
        self.pos = nn.Embedding(max_len, dim)
        layer = nn.TransformerEncoderLayer(dim, n_heads, dim * 2, dropout=0.0, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, n_layers)
        self.ln = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids):
        T = input_ids.size(1)
        pos = torch.arange(T, device=input_ids.device)
        h = self.tok(input_ids) + self.pos(pos)[None]
        causal = nn.Transformer.generate_square_subsequent_mask(T, device=input_ids.device)
        h = self.blocks(h, mask=causal, is_causal=True)
        return self.lm_head(self.ln(h))


class PreferencePairs(Dataset):
    """prompt -> chosen is the prompt sorted, rejected is a shuffled copy."""

    def __init__(self, n=256, seed=0):
        rng = random.Random(seed)
        self.rows = []
        for _ in range(n):
            prompt = [rng.randrange(3, VOCAB) for _ in range(rng.randint(3, 8))]
            chosen = sorted(prompt)
            rejected = prompt[:]
            rng.shuffle(rejected)
            self.rows.append((prompt, chosen, rejected))

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return self.rows[i]


def encode(prompt, response):
    ids = [BOS] + prompt + [SEP] + response
    labels = [IGNORE] * (len(prompt) + 2) + response
    return ids, labels


def collate(rows):
    chosen = [encode(p, c) for p, c, _ in rows]
    rejected = [encode(p, r) for p, _, r in rows]
    width = max(len(ids) for ids, _ in chosen + rejected)

    def pad(pairs):
        ids = torch.full((len(pairs), width), PAD, dtype=torch.long)
        labels = torch.full((len(pairs), width), IGNORE, dtype=torch.long)
        for k, (a, b) in enumerate(pairs):
            ids[k, : len(a)] = torch.tensor(a)
            labels[k, : len(b)] = torch.tensor(b)
        return ids, labels

    c_ids, c_labels = pad(chosen)
    r_ids, r_labels = pad(rejected)
    return {"chosen_ids": c_ids, "chosen_labels": c_labels,
            "rejected_ids": r_ids, "rejected_labels": r_labels}


def sequence_logps(logits, labels):
    """Sum of log p(label_t | <t) over the non-ignored positions."""
    labels = labels[:, 1:].clone()
    logits = logits[:, :-1]
    mask = labels != IGNORE
    labels[~mask] = 0
    per_token = torch.gather(logits.log_softmax(-1), 2, labels.unsqueeze(2)).squeeze(2)
    return (per_token * mask).sum(-1)


def concatenated_forward(model, batch):
    ids = torch.cat([batch["chosen_ids"], batch["rejected_ids"]], dim=0)
    labels = torch.cat([batch["chosen_labels"], batch["rejected_labels"]], dim=0)
    logps = sequence_logps(model(ids), labels)
    n = batch["chosen_ids"].size(0)
    return logps[:n], logps[n:]


def dpo_loss(pi_c, pi_r, ref_c, ref_r, beta):
    logits = (pi_c - pi_r) - (ref_c - ref_r)
    loss = -F.logsigmoid(beta * logits).mean()
    chosen_reward = beta * (pi_c - ref_c).detach()
    rejected_reward = beta * (pi_r - ref_r).detach()
    return loss, chosen_reward, rejected_reward


def build_models(args):
    policy = TinyCausalLM()
    if args.sft_checkpoint:
        policy.load_state_dict(torch.load(args.sft_checkpoint, map_location="cpu"))
    reference = copy.deepcopy(policy)  # expect: DEV016
    reference.eval()
    for p in reference.parameters():
        p.requires_grad_(False)
    return policy, reference


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sft-checkpoint", default=None)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--lr", type=float, default=5e-4)
    parser.add_argument("--beta", type=float, default=0.1)
    parser.add_argument("--no-cuda", action="store_true")
    args = parser.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")
    torch.manual_seed(0)

    policy, reference = build_models(args)
    policy.to(device)
    optimizer = torch.optim.AdamW(policy.parameters(), lr=args.lr)

    loader = DataLoader(PreferencePairs(), batch_size=args.batch_size, shuffle=True, collate_fn=collate)

    for epoch in range(args.epochs):
        policy.train()
        total, acc = 0.0, 0.0
        for batch in loader:
            batch = {k: v.to(device) for k, v in batch.items()}
            pi_c, pi_r = concatenated_forward(policy, batch)
            with torch.no_grad():
                ref_c, ref_r = concatenated_forward(reference, batch)
            loss, r_c, r_r = dpo_loss(pi_c, pi_r, ref_c, ref_r, args.beta)

            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            optimizer.step()

            total += loss.item()
            acc += (r_c > r_r).float().mean().item()
        print(f"epoch {epoch}: loss {total / len(loader):.4f}  reward acc {acc / len(loader):.3f}")


if __name__ == "__main__":
    main()
