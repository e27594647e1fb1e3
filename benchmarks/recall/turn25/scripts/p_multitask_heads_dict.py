"""Multi-task tabular model: a shared trunk and one head per task (regression
or classification), configured from a dict of task specs.
"""
import argparse
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class TaskSpec:
    kind: str  # "reg" or "cls"
    out_dim: int
    weight: float = 1.0


TASKS = {
    "price": TaskSpec("reg", 1, 1.0),
    "category": TaskSpec("cls", 4, 0.5),
    "returned": TaskSpec("cls", 2, 0.5),
}


class MultiTaskNet(nn.Module):
    def __init__(self, d_in, tasks, hidden=64):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.tasks = tasks
        self.heads = {name: nn.Linear(hidden, spec.out_dim) for name, spec in tasks.items()}  # expect: DEV009

    def forward(self, x):
        h = self.trunk(x)
        return {name: head(h) for name, head in self.heads.items()}

    def head_parameters(self):
        return [p for head in self.heads.values() for p in head.parameters()]


def task_loss(spec, pred, target):
    if spec.kind == "reg":
        return F.mse_loss(pred.squeeze(-1), target.float())
    return F.cross_entropy(pred, target.long())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args()
    device = torch.device(args.device)

    n, d = 256, 16
    x = torch.randn(n, d)
    targets = torch.stack([x[:, 0] * 3 + x[:, 1], (x[:, 2] > 0).long() + 2 * (x[:, 3] > 0).long(),
                           (x[:, 4] > 0.5).long()], dim=1)
    loader = DataLoader(TensorDataset(x, targets), batch_size=32, shuffle=True)

    model = MultiTaskNet(d, TASKS).to(device)
    optimizer = torch.optim.Adam(list(model.parameters()) + model.head_parameters(), lr=2e-3)

    for epoch in range(args.epochs):
        totals = {name: 0.0 for name in TASKS}
        for xb, tb in loader:
            xb, tb = xb.to(device), tb.to(device)
            outputs = model(xb)
            loss = 0.0
            for i, (name, spec) in enumerate(TASKS.items()):
                l = task_loss(spec, outputs[name], tb[:, i])
                totals[name] += l.item()
                loss = loss + spec.weight * l
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: " + ", ".join(f"{k}={v / len(loader):.3f}" for k, v in totals.items()))


if __name__ == "__main__":
    main()
