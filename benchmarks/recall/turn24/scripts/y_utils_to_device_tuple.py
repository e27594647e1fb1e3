"""Train a small bag-of-embeddings tagger; batches go through a generic to_device helper."""
import argparse
import random

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


def get_device(prefer_gpu=True):
    if prefer_gpu and torch.cuda.is_available():
        return torch.device("cuda")
    return torch.device("cpu")


def to_device(obj, device):
    """Recursively move tensors inside dicts and lists to `device`."""
    if torch.is_tensor(obj):
        return obj.to(device, non_blocking=True)
    if isinstance(obj, dict):
        return {k: to_device(v, device) for k, v in obj.items()}
    if isinstance(obj, list):
        return [to_device(v, device) for v in obj]
    return obj


class ToyTokens(Dataset):
    def __init__(self, n=300, vocab=50, max_len=12):
        random.seed(0)
        self.items = []
        for _ in range(n):
            length = random.randint(3, max_len)
            toks = [random.randrange(1, vocab) for _ in range(length)]
            self.items.append((toks, int(sum(toks) % 3)))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def pad_collate(samples):
    longest = max(len(t) for t, _ in samples)
    ids = torch.zeros(len(samples), longest, dtype=torch.long)
    for row, (toks, _) in enumerate(samples):
        ids[row, : len(toks)] = torch.tensor(toks)
    labels = torch.tensor([lab for _, lab in samples])
    return ids, labels


class BagModel(nn.Module):
    def __init__(self, vocab=50, dim=32, n_cls=3):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean", padding_idx=0)
        self.out = nn.Linear(dim, n_cls)

    def forward(self, ids):
        return self.out(self.emb(ids))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--cpu", action="store_true")
    args = p.parse_args()

    device = get_device(prefer_gpu=not args.cpu)
    loader = DataLoader(ToyTokens(), batch_size=32, shuffle=True, collate_fn=pad_collate)
    model = BagModel().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    loss_fn = nn.CrossEntropyLoss()

    for epoch in range(args.epochs):
        running = 0.0
        for batch in loader:
            ids, labels = to_device(batch, device)
            logits = model(ids)  # expect: DEV002
            loss = loss_fn(logits, labels)  # also: DEV004
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
        print(f"epoch {epoch}: loss {running / len(loader):.3f}")


if __name__ == "__main__":
    main()
