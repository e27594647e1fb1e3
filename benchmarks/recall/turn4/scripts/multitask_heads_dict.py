"""A shared encoder with one classification head per task, chosen by the task name of each batch."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

TASKS = {"topic": 7, "sentiment": 3, "toxicity": 2}


class MultiTaskModel(nn.Module):
    def __init__(self, d_in=50, d_hidden=128):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(d_in, d_hidden), nn.ReLU(), nn.Dropout(0.1))
        self.heads = {task: nn.Linear(d_hidden, n) for task, n in TASKS.items()}  # expect: DEV009

    def forward(self, x, task):
        return self.heads[task](self.encoder(x))


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = MultiTaskModel().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(12):
        task = random.choice(list(TASKS))
        x = torch.randn(16, 50, device=device)
        y = torch.randint(0, TASKS[task], (16,), device=device)
        loss = F.cross_entropy(model(x, task), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
