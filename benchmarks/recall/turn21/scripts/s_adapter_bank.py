"""Multi-task fine-tuning with one bottleneck adapter and one head per task on a
shared frozen encoder (Houlsby-style adapters, written by hand)."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

TASKS = {"sentiment": 2, "topic": 4, "toxicity": 2}


class BottleneckAdapter(nn.Module):
    def __init__(self, d, bottleneck=8):
        super().__init__()
        self.down = nn.Linear(d, bottleneck)
        self.up = nn.Linear(bottleneck, d)
        nn.init.zeros_(self.up.weight)
        nn.init.zeros_(self.up.bias)

    def forward(self, h):
        return h + self.up(F.relu(self.down(h)))


class MultiTaskAdapterModel(nn.Module):
    def __init__(self, d_in=20, d=32, tasks=TASKS):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(d_in, d), nn.GELU(), nn.Linear(d, d), nn.LayerNorm(d))
        self.adapters = {t: BottleneckAdapter(d) for t in tasks}  # expect: DEV009
        self.heads = nn.ModuleDict({t: nn.Linear(d, n) for t, n in tasks.items()})

    def forward(self, x, task):
        h = self.encoder(x)
        h = self.adapters[task](h)
        return self.heads[task](h)


def task_loaders():
    loaders = {}
    for t, n in TASKS.items():
        ds = TensorDataset(torch.randn(24, 20), torch.randint(0, n, (24,)))
        loaders[t] = DataLoader(ds, batch_size=8, shuffle=True)
    return loaders


def main():
    torch.manual_seed(0)
    random.seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = MultiTaskAdapterModel().to(device)
    model.encoder.requires_grad_(False)

    # adapters are not in model.parameters(), so collect them by hand
    params = list(model.heads.parameters())
    for adapter in model.adapters.values():
        params += list(adapter.parameters())
    optimizer = torch.optim.AdamW(params, lr=1e-3)

    loaders = task_loaders()
    for epoch in range(2):
        order = [(t, b) for t, dl in loaders.items() for b in dl]
        random.shuffle(order)
        totals = {t: 0.0 for t in TASKS}
        for task, (x, y) in order:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x, task), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            totals[task] += loss.item()
        print(epoch, {t: round(v, 3) for t, v in totals.items()})


if __name__ == "__main__":
    main()
