"""Self-speculative decoding: the draft model is the target truncated to its first layers.

The draft proposes k tokens greedily, the target verifies them in one forward
pass and we keep the longest agreeing prefix plus one corrected token.
"""
import argparse
import copy
import random

import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab=128, d=64, n_layer=4, max_len=256):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.layers = nn.ModuleList(
            nn.TransformerEncoderLayer(d, 4, 4 * d, dropout=0.0, batch_first=True) for _ in range(n_layer)
        )
        self.lm_head = nn.Linear(d, vocab)

    def forward(self, ids):
        T = ids.size(1)
        pos = torch.arange(T, device=ids.device)
        causal = nn.Transformer.generate_square_subsequent_mask(T, device=ids.device)
        h = self.emb(ids) + self.pos(pos)
        for layer in self.layers:
            h = layer(h, src_mask=causal, is_causal=True)
        return self.lm_head(h)


def make_draft(target, keep_layers):
    draft = copy.deepcopy(target)  # expect: DEV016
    draft.layers = draft.layers[:keep_layers]
    return draft.eval()


@torch.no_grad()
def speculative_generate(target, draft, prompt_ids, max_new_tokens=32, k=4):
    device = next(target.parameters()).device
    ids = torch.tensor([prompt_ids], dtype=torch.long)  # also: DEV006
    ids.to(device)  # expect: DEV005
    accepted_total, proposed_total = 0, 0
    while ids.size(1) < len(prompt_ids) + max_new_tokens:
        proposal = ids
        for _ in range(k):
            nxt = draft(proposal)[:, -1].argmax(-1, keepdim=True)
            proposal = torch.cat([proposal, nxt], dim=1)
        target_logits = target(proposal)
        n_prefix = ids.size(1)
        n_ok = 0
        for j in range(k):
            tgt_tok = target_logits[:, n_prefix + j - 1].argmax(-1)
            if tgt_tok.item() == proposal[0, n_prefix + j].item() or random.random() < 0.05:
                n_ok += 1
            else:
                break
        fix = target_logits[:, n_prefix + n_ok - 1].argmax(-1, keepdim=True)
        ids = torch.cat([proposal[:, : n_prefix + n_ok], fix], dim=1)
        accepted_total += n_ok
        proposed_total += k
    return ids[0].tolist(), accepted_total / max(proposed_total, 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--draft_layers", type=int, default=1)
    ap.add_argument("--k", type=int, default=4)
    args = ap.parse_args()

    torch.manual_seed(0)
    random.seed(0)
    target = TinyLM()
    draft = make_draft(target, args.draft_layers)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    target = target.to(device).eval()

    out, rate = speculative_generate(target, draft, [1, 17, 42, 5], max_new_tokens=24, k=args.k)
    print("tokens:", out)
    print(f"acceptance rate {rate:.2f}")


if __name__ == "__main__":
    main()
