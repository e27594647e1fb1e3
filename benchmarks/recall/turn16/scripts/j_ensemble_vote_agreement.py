"""Bagged ensemble of small CNNs on synthetic 'shapes'; flags low-agreement predictions
for manual review."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset, RandomSampler


def make_member(n_classes):
    return nn.Sequential(
        nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2),
        nn.Flatten(), nn.Linear(64, n_classes),
    )


class BaggedEnsemble(nn.Module):
    def __init__(self, n_members, n_classes):
        super().__init__()
        self.members = [make_member(n_classes) for _ in range(n_members)]  # expect: DEV009

    def forward(self, x):
        return torch.stack([m(x) for m in self.members])


def shapes_dataset(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 3, (n,), generator=g)
    x = 0.2 * torch.randn(n, 1, 16, 16, generator=g)
    x[y == 0, :, 4:12, 4:12] += 1.0                 # square
    x[y == 1, :, 7:9, :] += 1.0                     # horizontal bar
    x[y == 2, :, :, 7:9] += 1.0                     # vertical bar
    return TensorDataset(x, y)


def fit_member(member, dataset, device, epochs, seed):
    gen = torch.Generator().manual_seed(seed)
    sampler = RandomSampler(dataset, replacement=True, num_samples=len(dataset), generator=gen)
    loader = DataLoader(dataset, batch_size=32, sampler=sampler)
    opt = torch.optim.SGD(member.parameters(), lr=0.05, momentum=0.9)
    member.train()
    for _ in range(epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(member(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--members", type=int, default=4)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--review-threshold", type=float, default=0.75)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    train_set, test_set = shapes_dataset(400, 0), shapes_dataset(200, 1)
    ensemble = BaggedEnsemble(args.members, n_classes=3).to(device)
    for i, member in enumerate(ensemble.members):
        fit_member(member, train_set, device, args.epochs, seed=i)

    x_test, y_test = test_set.tensors
    x_test, y_test = x_test.to(device), y_test.to(device)
    with torch.no_grad():
        for m in ensemble.members:
            m.eval()
        logits = ensemble(x_test)
    probs = logits.softmax(-1)
    votes = logits.argmax(-1)
    majority = votes.mode(dim=0).values
    agreement = (votes == majority).type(torch.FloatTensor).mean(0)  # expect: DEV021
    confidence = probs.mean(0).max(-1).values
    reliability = agreement * confidence

    acc = (majority == y_test).float().mean().item()
    flagged = (reliability < args.review_threshold).sum().item()
    print(f"ensemble acc {acc:.3f}; {flagged}/{len(y_test)} predictions flagged for review")


if __name__ == "__main__":
    main()
