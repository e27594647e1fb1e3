"""DPO with reference log-probs precomputed once before training (saves a
forward pass of the reference model per step), IPO / sigmoid loss variants.
"""
import argparse
import copy
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

PAD, SEP = 0, 1
VOCAB = 50


class GRUPolicy(nn.Module):
    def __init__(self, vocab=VOCAB, dim=80):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=PAD)
        self.gru = nn.GRU(dim, dim, num_layers=2, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        out, _ = self.gru(self.emb(ids))
        return self.head(out)


def synth_pairs(n, seed):
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        prompt = [rng.randrange(2, VOCAB) for _ in range(rng.randint(2, 7))]
        chosen = [t for t in prompt if t < VOCAB // 2] + [2]
        rejected = [t for t in prompt if t >= VOCAB // 2] + [3]
        rows.append((prompt, chosen, rejected))
    return rows


def pad_rows(seqs):
    width = max(map(len, seqs))
    out = torch.full((len(seqs), width), PAD, dtype=torch.long)
    for i, s in enumerate(seqs):
        out[i, : len(s)] = torch.tensor(s)
    return out


def collate(items):
    prompts, chosen, rejected, ref_c, ref_r = zip(*items)
    return {
        "chosen": pad_rows([p + [SEP] + c for p, c in zip(prompts, chosen)]),
        "rejected": pad_rows([p + [SEP] + r for p, r in zip(prompts, rejected)]),
        "prompt_len": torch.tensor([len(p) + 1 for p in prompts]),
        "ref_chosen": torch.stack(ref_c),
        "ref_rejected": torch.stack(ref_r),
    }


class PairsWithRef(Dataset):
    def __init__(self, rows, ref_chosen, ref_rejected):
        self.rows, self.ref_chosen, self.ref_rejected = rows, ref_chosen, ref_rejected

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        p, c, r = self.rows[i]
        return p, c, r, self.ref_chosen[i], self.ref_rejected[i]


def response_logps(model, ids, prompt_len):
    logits = model(ids[:, :-1])
    targets = ids[:, 1:]
    pos = torch.arange(targets.size(1), device=ids.device)
    mask = (pos[None, :] >= (prompt_len[:, None] - 1)) & (targets != PAD)
    logps = torch.gather(logits.log_softmax(-1), 2, targets.unsqueeze(-1)).squeeze(-1)
    return (logps * mask).sum(-1)


@torch.no_grad()
def precompute_reference(reference, rows, device, bs=64):
    ref_c, ref_r = [], []
    for start in range(0, len(rows), bs):
        chunk = rows[start:start + bs]
        fake = [(p, c, r, torch.zeros(()), torch.zeros(())) for p, c, r in chunk]
        batch = {k: v.to(device) for k, v in collate(fake).items()}
        ref_c.append(response_logps(reference, batch["chosen"], batch["prompt_len"]).cpu())
        ref_r.append(response_logps(reference, batch["rejected"], batch["prompt_len"]).cpu())
    return torch.cat(ref_c), torch.cat(ref_r)


def preference_loss(pi_c, pi_r, ref_c, ref_r, beta, kind):
    h = (pi_c - ref_c) - (pi_r - ref_r)
    if kind == "ipo":
        return ((h - 1.0 / (2 * beta)) ** 2).mean()
    return -F.logsigmoid(beta * h).mean()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--loss", choices=["sigmoid", "ipo"], default="sigmoid")
    ap.add_argument("--beta", type=float, default=0.1)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--device", default=None)
    args = ap.parse_args()
    device = torch.device(args.device or ("cuda" if torch.cuda.is_available() else "cpu"))
    torch.manual_seed(0)

    policy = GRUPolicy().to(device)
    reference = copy.deepcopy(policy).eval().requires_grad_(False)

    rows = synth_pairs(384, seed=3)
    ref_c, ref_r = precompute_reference(reference, rows, device)
    del reference
    loader = DataLoader(PairsWithRef(rows, ref_c, ref_r), batch_size=32, shuffle=True, collate_fn=collate)

    opt = torch.optim.Adam(policy.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        margins = []
        for batch in loader:
            batch = {k: v.to(device, non_blocking=True) for k, v in batch.items()}
            pi_c = response_logps(policy, batch["chosen"], batch["prompt_len"])
            pi_r = response_logps(policy, batch["rejected"], batch["prompt_len"])
            loss = preference_loss(pi_c, pi_r, batch["ref_chosen"], batch["ref_rejected"], args.beta, args.loss)
            opt.zero_grad()
            loss.backward()
            opt.step()
            margin = args.beta * ((pi_c - batch["ref_chosen"]) - (pi_r - batch["ref_rejected"]))
            margins.append(margin.detach().cpu().numpy())
        m = np.concatenate(margins)
        print(f"epoch {epoch}: loss {loss.item():.4f} margin mean {m.mean():.3f} acc {(m > 0).mean():.3f}")


if __name__ == "__main__":
    main()
