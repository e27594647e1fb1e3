"""Shared-encoder multi-task classifier over bag-of-features inputs.

Three tasks with their own label sets share one MLP trunk; every step takes a
batch from one task (round robin) and trains trunk + that task's head.
"""
import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.classification import MulticlassAccuracy

TASKS = {"sentiment": 3, "topic": 6, "toxicity": 2}
IN_DIM = 32
HIDDEN = 64
STEPS_PER_EPOCH = 60
EPOCHS = 3


class MultiTaskNet(nn.Module):
    def __init__(self, in_dim, hidden, tasks):
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Linear(in_dim, hidden), nn.GELU(), nn.Dropout(0.1),
            nn.Linear(hidden, hidden), nn.GELU(),
        )
        self.heads = {name: nn.Linear(hidden, n_cls) for name, n_cls in tasks.items()}  # expect: DEV009

    def forward(self, x, task):
        return self.heads[task](self.trunk(x))


def synthetic_task(n_cls, n, seed):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(IN_DIM, n_cls, generator=g)
    x = torch.randn(n, IN_DIM, generator=g)
    y = (x @ w + 0.3 * torch.randn(n, n_cls, generator=g)).argmax(1)
    return TensorDataset(x, y)


def make_loaders(split_seed, n, shuffle):
    return {
        name: DataLoader(synthetic_task(n_cls, n, split_seed + i), batch_size=32, shuffle=shuffle)
        for i, (name, n_cls) in enumerate(TASKS.items())
    }


@torch.no_grad()
def evaluate(model, loaders, device):
    model.eval()
    metrics = {name: MulticlassAccuracy(num_classes=n_cls) for name, n_cls in TASKS.items()}  # expect: DEV019
    for name, loader in loaders.items():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            preds = model(x, name).argmax(-1)
            metrics[name].update(preds, y)
    return {name: m.compute().item() for name, m in metrics.items()}


def main():
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    train_loaders = make_loaders(100, 512, shuffle=True)
    val_loaders = make_loaders(100, 128, shuffle=False)

    model = MultiTaskNet(IN_DIM, HIDDEN, TASKS).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=0.01)

    iters = {name: itertools.cycle(loader) for name, loader in train_loaders.items()}
    schedule = itertools.cycle(TASKS)
    for epoch in range(EPOCHS):
        model.train()
        losses = {name: [] for name in TASKS}
        for _ in range(STEPS_PER_EPOCH):
            task = next(schedule)
            x, y = next(iters[task])
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x, task), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses[task].append(loss.item())
        scores = evaluate(model, val_loaders, device)
        summary = "  ".join(f"{t}: loss {sum(v) / len(v):.3f} acc {scores[t]:.3f}" for t, v in losses.items())
        print(f"epoch {epoch}  {summary}")


if __name__ == "__main__":
    main()
