"""Sentence-pair similarity regression with a bucketed padding collate given
through functools.partial. The collate stays on the CPU (it runs in the worker
processes); the training loop moves the whole dict batch.
"""
import argparse
import functools
import random

import torch
import torch.nn as nn
from torch.utils.data import DataLoader


def make_pairs(n, vocab=100, seed=0):
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        a = [rng.randrange(2, vocab) for _ in range(rng.randint(3, 9))]
        b = a[: rng.randint(1, len(a))] + [rng.randrange(2, vocab) for _ in range(rng.randint(0, 4))]
        score = len(set(a) & set(b)) / len(set(a) | set(b))
        rows.append((a, b, score))
    return rows


def pad(seqs, pad_id):
    width = max(len(s) for s in seqs)
    out = torch.full((len(seqs), width), pad_id, dtype=torch.long)
    for i, s in enumerate(seqs):
        out[i, : len(s)] = torch.tensor(s)
    return out


def pair_collate(rows, pad_id):
    a = pad([r[0] for r in rows], pad_id)
    b = pad([r[1] for r in rows], pad_id)
    return {
        "a": a,
        "a_mask": (a != pad_id).float(),
        "b": b,
        "b_mask": (b != pad_id).float(),
        "score": torch.tensor([r[2] for r in rows], dtype=torch.float),
    }


class SiameseBag(nn.Module):
    def __init__(self, vocab=100, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.proj = nn.Linear(dim, dim)

    def encode(self, ids, mask):
        h = self.emb(ids) * mask.unsqueeze(-1)
        return self.proj(h.sum(1) / mask.sum(1, keepdim=True))

    def forward(self, a, a_mask, b, b_mask):
        return torch.cosine_similarity(self.encode(a, a_mask), self.encode(b, b_mask))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=0)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    collate = functools.partial(pair_collate, pad_id=0)
    train = DataLoader(make_pairs(320), batch_size=32, shuffle=True, collate_fn=collate,
                       num_workers=args.workers, pin_memory=device.type == "cuda")
    model = SiameseBag().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    criterion = nn.MSELoss()

    for epoch in range(args.epochs):
        for batch in train:
            batch = {k: v.to(device, non_blocking=True) for k, v in batch.items()}
            score = batch.pop("score")
            pred = model(**batch)
            loss = criterion(pred, score)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: mse {loss.item():.4f}")


if __name__ == "__main__":
    main()
