"""Multi-task tabular model: one shared trunk and a head per task, the heads built from a list
of task sizes."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiTask(nn.Module):
    def __init__(self, d_in, task_sizes):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(d_in, 32), nn.ReLU())
        self.heads = [nn.Linear(32, k) for k in task_sizes]  # expect: DEV009

    def forward(self, x):
        h = self.trunk(x)
        return [head(h) for head in self.heads]


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = MultiTask(10, [2, 3, 5]).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(10):
        x = torch.randn(16, 10, device=device)
        ys = [torch.randint(0, k, (16,), device=device) for k in (2, 3, 5)]
        loss = sum(F.cross_entropy(o, y) for o, y in zip(model(x), ys))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
