"""Look-alike of recsys_embeddingbag_offsets_cpu.py: the EmbeddingBag offsets are built on the
device, negatives are drawn from a popularity buffer that moves with the model, and a CPU
permutation picks rows of the device item table (CUDA tensors accept CPU indices).

Thread: https://github.com/pytorch/pytorch/issues/7689 (EmbeddingBag raises when its weights are
on the GPU and an input is on the CPU).
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

N_ITEMS = 500


def make_sessions(n=256):
    out = []
    for _ in range(n):
        clicks = random.sample(range(N_ITEMS), random.randint(2, 9))
        out.append((clicks[:-1], clicks[-1]))
    return out


def collate(batch):
    flat = torch.tensor([item for clicks, _ in batch for item in clicks])
    return flat, [len(c) for c, _ in batch], torch.tensor([n for _, n in batch])


class SessionModel(nn.Module):
    def __init__(self, popularity, d=32):
        super().__init__()
        self.bag = nn.EmbeddingBag(N_ITEMS, d, mode="mean")
        self.items = nn.Embedding(N_ITEMS, d)
        self.register_buffer("popularity", popularity / popularity.sum())

    def session(self, flat, offsets):
        return self.bag(flat, offsets)

    def sample_negatives(self, n, k):
        return torch.multinomial(self.popularity, n * k, replacement=True).view(n, k)


def main(k=8):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    sessions = make_sessions()
    counts = torch.bincount(torch.tensor([n for _, n in sessions]), minlength=N_ITEMS) + 1
    model = SessionModel(counts.float()).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(3):
        for flat, bag_lens, target in DataLoader(sessions, batch_size=32, shuffle=True,
                                                  collate_fn=collate):
            offsets = torch.tensor([0] + bag_lens[:-1], device=device).cumsum(0)
            s = model.session(flat.to(device), offsets)
            pos = model.items(target.to(device))
            neg = model.items(model.sample_negatives(s.size(0), k))
            pos_score = (s * pos).sum(-1, keepdim=True)
            neg_score = torch.einsum("bd,bkd->bk", s, neg)
            loss = -F.logsigmoid(pos_score - neg_score).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        probe = torch.randperm(N_ITEMS)[:50]
        norms = model.items.weight[probe].norm(dim=1)
        print(f"epoch {epoch}: bpr {loss.item():.3f} mean item norm {norms.mean().item():.2f}")


if __name__ == "__main__":
    main()
