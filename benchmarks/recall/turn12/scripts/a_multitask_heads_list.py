"""Multi-task tabular model: one shared trunk and a classification head per
task, trained on the sum of the per-task cross-entropies.

Written from "model.cuda() doesn't automatically detect layers initialized in a
list" (pytorch#15005, the multitask softmax heads), "RESMLPS submodules not
registered as nn.ModuleList", "minor: `model.to(device)`" and "make sure model on
target device" (a `.to(device)` repeated for every batch, just in case), and the
familiar unmoved label tensors, here a whole list of them.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

TASK_CLASSES = [5, 2, 10, 3]
IN_DIM = 40


class MultiTaskData(Dataset):
    def __init__(self, n=2000, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randn(n, IN_DIM, generator=g)
        self.ys = [(self.x[:, i * 4:(i + 1) * 4].sum(1) * 3).long().remainder(c)
                   for i, c in enumerate(TASK_CLASSES)]

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], [y[i] for y in self.ys]


class MultiTaskNet(nn.Module):
    def __init__(self, in_dim, task_classes, hidden=128):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.heads = [nn.Linear(hidden, c) for c in task_classes]  # expect: DEV009

    def forward(self, x):
        h = self.trunk(x)
        return [head(h) for head in self.heads]


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loader = DataLoader(MultiTaskData(), batch_size=64, shuffle=True)
    model = MultiTaskNet(IN_DIM, TASK_CLASSES)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

    for epoch in range(3):
        running = [0.0] * len(TASK_CLASSES)
        for x, ys in loader:
            model.to(device)  # expect: DEV007
            model.train()
            x = x.to(device)
            outputs = model(x)
            losses = [F.cross_entropy(out, y) for out, y in zip(outputs, ys)]  # expect: DEV004
            loss = sum(losses)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            for i, l in enumerate(losses):
                running[i] += l.item()
        print(f"epoch {epoch}: " + ", ".join(f"task{i} {r / len(loader):.3f}" for i, r in enumerate(running)))


if __name__ == "__main__":
    main()
