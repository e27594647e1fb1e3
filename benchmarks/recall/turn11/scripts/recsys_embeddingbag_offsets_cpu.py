"""Session-based next-item recommender: the items clicked in a session are pooled with
nn.EmbeddingBag (flat indices plus offsets) and scored against the whole catalogue.

Thread: https://github.com/pytorch/pytorch/issues/7689 (EmbeddingBag raises when its weights
are on the GPU and an input is on the CPU).
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

N_ITEMS = 500


def make_sessions(n=256):
    sessions = []
    for _ in range(n):
        clicks = random.sample(range(N_ITEMS), random.randint(2, 9))
        sessions.append((clicks[:-1], clicks[-1]))
    return sessions


def collate(batch):
    flat = torch.tensor([item for clicks, _ in batch for item in clicks])
    bag_lens = [len(clicks) for clicks, _ in batch]
    target = torch.tensor([nxt for _, nxt in batch])
    return flat, bag_lens, target


class SessionModel(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.bag = nn.EmbeddingBag(N_ITEMS, d, mode="mean")
        self.proj = nn.Linear(d, d)
        self.items = nn.Embedding(N_ITEMS, d)

    def forward(self, flat, offsets):
        session = torch.tanh(self.proj(self.bag(flat, offsets)))
        return session @ self.items.weight.t()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = SessionModel().to(device)
    opt = torch.optim.Adagrad(model.parameters(), lr=0.05)
    loader = DataLoader(make_sessions(), batch_size=32, shuffle=True, collate_fn=collate)
    for epoch in range(3):
        total = 0.0
        for flat, bag_lens, target in loader:
            offsets = torch.tensor([0] + bag_lens[:-1]).cumsum(0)  # expect: DEV006
            logits = model(flat.to(device), offsets)
            loss = F.cross_entropy(logits, target.to(device))
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch}: loss {total / len(loader):.3f}")


if __name__ == "__main__":
    main()
