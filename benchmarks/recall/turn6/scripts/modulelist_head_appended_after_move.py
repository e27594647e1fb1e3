"""Multi-task regressor: one head per task in a ModuleList; a new task's head is appended when
the task arrives (continual learning), after the model was placed on the device."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHead(nn.Module):
    def __init__(self, d_in=10, hidden=32):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU())
        self.heads = nn.ModuleList([nn.Linear(hidden, 1)])

    def forward(self, x, task):
        return self.heads[task](self.trunk(x))


def task_batch(task, n=64):
    x = torch.randn(n, 10)
    return x, x[:, task:task + 2].sum(1, keepdim=True)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = MultiHead().to(device)
    for task in range(3):
        if task > 0:
            model.heads.append(nn.Linear(32, 1))  # expect: DEV015
        opt = torch.optim.Adam(model.parameters(), lr=1e-2)
        for step in range(30):
            x, y = task_batch(task)
            x, y = x.to(device), y.to(device)
            loss = F.mse_loss(model(x, task), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(task, loss.item())


if __name__ == "__main__":
    main()
