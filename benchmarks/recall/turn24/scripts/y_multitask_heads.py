"""Multi-task tabular model: one shared trunk, one head per task, tasks read from a dict."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

TASKS = {"churn": 2, "segment": 5, "tenure_bucket": 3}


class SharedTrunkModel(nn.Module):
    def __init__(self, n_features, tasks, hidden=64):
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Linear(n_features, hidden), nn.LayerNorm(hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
        )
        self.heads = {name: nn.Linear(hidden, n_out) for name, n_out in tasks.items()}  # expect: DEV009

    def forward(self, x):
        z = self.trunk(x)
        return {name: head(z) for name, head in self.heads.items()}


class CustomerTable(Dataset):
    def __init__(self, n=500, n_features=12):
        g = torch.Generator().manual_seed(9)
        self.x = torch.randn(n, n_features, generator=g)
        self.targets = {name: torch.randint(0, k, (n,), generator=g) for name, k in TASKS.items()}

    def __len__(self):
        return self.x.shape[0]

    def __getitem__(self, i):
        return self.x[i], {name: t[i] for name, t in self.targets.items()}


def train(model, loader, device, epochs=3, task_weights=None):
    task_weights = task_weights or {name: 1.0 for name in TASKS}
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(epochs):
        model.train()
        totals = {name: 0.0 for name in TASKS}
        for x, targets in loader:
            x = x.to(device)
            targets = {k: v.to(device) for k, v in targets.items()}
            outputs = model(x)
            losses = {k: F.cross_entropy(outputs[k], targets[k]) for k in TASKS}
            loss = sum(task_weights[k] * losses[k] for k in TASKS)
            opt.zero_grad()
            loss.backward()
            opt.step()
            for k in TASKS:
                totals[k] += losses[k].item()
        print(epoch, {k: round(v / len(loader), 3) for k, v in totals.items()})


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = SharedTrunkModel(12, TASKS).to(device)
    loader = DataLoader(CustomerTable(), batch_size=50, shuffle=True)
    train(model, loader, device)
