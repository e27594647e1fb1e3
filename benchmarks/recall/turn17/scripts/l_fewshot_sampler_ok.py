"""Few-shot training with an N-way K-shot batch sampler over an ordinary
labelled dataset (one DataLoader batch == one episode: the first way*shot
items are the support set, the rest the query set, class-major order).
"""
import argparse
import os

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, Sampler


class GlyphDataset(Dataset):
    """Stand-in for Omniglot: 10x10 noisy 'glyphs', 20 examples per class."""

    def __init__(self, n_classes, per_class=20, seed=0):
        rng = np.random.default_rng(seed)
        protos = rng.random((n_classes, 1, 10, 10)) > 0.6
        flips = rng.random((n_classes, per_class, 1, 10, 10)) > 0.9
        self.x = (protos[:, None] ^ flips).reshape(-1, 1, 10, 10).astype(np.float32)
        self.y = np.repeat(np.arange(n_classes), per_class)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return torch.from_numpy(self.x[i]), int(self.y[i])


class CategoriesSampler(Sampler):
    def __init__(self, labels, n_batch, way, per_class):
        self.n_batch, self.way, self.per_class = n_batch, way, per_class
        labels = np.asarray(labels)
        self.by_class = [np.flatnonzero(labels == c) for c in np.unique(labels)]

    def __len__(self):
        return self.n_batch

    def __iter__(self):
        for _ in range(self.n_batch):
            classes = torch.randperm(len(self.by_class))[: self.way]
            picks = [torch.from_numpy(self.by_class[c])[torch.randperm(len(self.by_class[c]))[: self.per_class]]
                     for c in classes]
            yield torch.stack(picks).t().reshape(-1).tolist()  # shot-major: s0c0, s0c1, ...


def conv4(out=32):
    def block(i, o):
        return nn.Sequential(nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU(), nn.MaxPool2d(2))
    return nn.Sequential(block(1, out), block(out, out), nn.Flatten())


def episode_logits(encoder, data, way, shot):
    p = way * shot
    emb = encoder(data)
    proto = emb[:p].view(shot, way, -1).mean(0)
    return -torch.cdist(emb[p:], proto) ** 2


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--way", type=int, default=5)
    ap.add_argument("--shot", type=int, default=1)
    ap.add_argument("--query", type=int, default=5)
    ap.add_argument("--episodes", type=int, default=100)
    ap.add_argument("--init", default="conv4_pretrained.pt")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    train_set, val_set = GlyphDataset(40, seed=0), GlyphDataset(15, seed=1)
    per_class = args.shot + args.query
    train_loader = DataLoader(train_set, batch_sampler=CategoriesSampler(train_set.y, args.episodes, args.way, per_class))
    val_loader = DataLoader(val_set, batch_sampler=CategoriesSampler(val_set.y, 40, args.way, per_class))

    encoder = conv4()
    if os.path.exists(args.init):
        encoder.load_state_dict(torch.load(args.init, map_location="cpu"))
    encoder.to(device)
    opt = torch.optim.Adam(encoder.parameters(), lr=1e-3)

    label = torch.arange(args.way).repeat(args.query).to(device)
    for i, (data, _) in enumerate(train_loader, 1):
        encoder.train()
        data = data.to(device)
        logits = episode_logits(encoder, data, args.way, args.shot)
        loss = F.cross_entropy(logits, label)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if i % 25 == 0:
            acc = (logits.argmax(1) == label).float().mean().item()
            print(f"episode {i}: loss {loss.item():.3f} acc {acc:.3f}")

    encoder.eval()
    accs = []
    with torch.no_grad():
        for data, _ in val_loader:
            logits = episode_logits(encoder, data.to(device), args.way, args.shot)
            accs.append((logits.argmax(1) == label).float().mean().item())
    print(f"val {args.way}-way {args.shot}-shot acc: {np.mean(accs):.3f}")


if __name__ == "__main__":
    main()
