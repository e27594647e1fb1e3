"""One shared encoder, one bottleneck adapter + head per task (Houlsby-style adapters).

Tasks: sentiment (2 classes), topic (4 classes), toxicity (2 classes).
Batches alternate between tasks round-robin.
"""
import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

TASKS = {"sentiment": 2, "topic": 4, "toxicity": 2}


class Adapter(nn.Module):
    def __init__(self, d, bottleneck=16):
        super().__init__()
        self.down = nn.Linear(d, bottleneck)
        self.up = nn.Linear(bottleneck, d)
        nn.init.zeros_(self.up.weight)
        nn.init.zeros_(self.up.bias)

    def forward(self, h):
        return h + self.up(F.relu(self.down(h)))


class MultiTaskModel(nn.Module):
    def __init__(self, vocab=800, d=64, tasks=TASKS):
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab, d, mode="mean")
        self.encoder = nn.Sequential(nn.Linear(d, d), nn.Tanh(), nn.Linear(d, d), nn.Tanh())
        self.adapters = {task: Adapter(d) for task in tasks}  # expect: DEV009
        self.heads = nn.ModuleDict({task: nn.Linear(d, n) for task, n in tasks.items()})

    def forward(self, ids, task):
        h = self.encoder(self.embed(ids))
        h = self.adapters[task](h)
        return self.heads[task](h)


def task_loader(n_classes, seed, n=160):
    g = torch.Generator().manual_seed(seed)
    x = torch.randint(0, 800, (n, 20), generator=g)
    y = x[:, 0] % n_classes
    return DataLoader(TensorDataset(x, y), batch_size=16, shuffle=True)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = MultiTaskModel().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loaders = {t: task_loader(n, seed=i) for i, (t, n) in enumerate(TASKS.items())}

    for epoch in range(2):
        iters = {t: iter(dl) for t, dl in loaders.items()}
        totals = {t: 0.0 for t in TASKS}
        for task in itertools.islice(itertools.cycle(TASKS), 30):
            try:
                x, y = next(iters[task])
            except StopIteration:
                iters[task] = iter(loaders[task])
                x, y = next(iters[task])
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x, task), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            totals[task] += loss.item()
        print(epoch, {t: round(v / 10, 3) for t, v in totals.items()})


if __name__ == "__main__":
    main()
