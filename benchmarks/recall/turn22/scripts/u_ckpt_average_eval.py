"""Average the weights of the last K checkpoints (uniform "model soup"), recompute the
BatchNorm statistics for the averaged weights, and evaluate it with a confusion matrix.

Runs next to the training job, so it uses the second card and leaves GPU 0 alone.
"""
import os
import tempfile

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

EVAL_DEVICE = torch.device("cuda:1" if torch.cuda.is_available() else "cpu")  # expect: DEV018
N_CLASSES = 4


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                               nn.MaxPool2d(2), nn.Conv2d(8, 16, 3, padding=1),
                               nn.BatchNorm2d(16), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                               nn.Flatten(), nn.Linear(16, N_CLASSES))

    def forward(self, x):
        return self.f(x)


class ConfusionMatrix(nn.Module):
    """Streaming confusion matrix; state kept in a buffer so it can be synced and saved."""

    def __init__(self, num_classes):
        super().__init__()
        self.num_classes = num_classes
        self.register_buffer("mat", torch.zeros(num_classes, num_classes, dtype=torch.long))

    def update(self, preds, target):
        idx = target * self.num_classes + preds
        self.mat += torch.bincount(idx, minlength=self.num_classes ** 2).view_as(self.mat)

    def compute(self):
        per_class = self.mat.diag().float() / self.mat.sum(1).clamp(min=1).float()
        return per_class.mean().item()


def average_checkpoints(paths):
    avg = None
    for p in paths:
        sd = torch.load(p, map_location="cpu")["model"]
        if avg is None:
            avg = {k: v.clone().double() if v.is_floating_point() else v.clone() for k, v in sd.items()}
        else:
            for k, v in sd.items():
                if v.is_floating_point():
                    avg[k] += v.double()
    return {k: (v / len(paths)).float() if v.is_floating_point() else v for k, v in avg.items()}


@torch.no_grad()
def recompute_bn(model, loader):
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.reset_running_stats()
            m.momentum = None
    model.to(EVAL_DEVICE)
    model.train()
    for x, _ in loader:
        model(x.to(EVAL_DEVICE))


def main():
    g = torch.Generator().manual_seed(0)
    data = TensorDataset(torch.randn(96, 1, 12, 12, generator=g),
                         torch.randint(0, N_CLASSES, (96,), generator=g))
    loader = DataLoader(data, batch_size=24)

    ckpt_dir = tempfile.mkdtemp()
    paths = []
    for step in range(3):  # stand-ins for the checkpoints of the running job
        paths.append(os.path.join(ckpt_dir, f"step{step}.pt"))
        torch.save({"model": SmallCNN().state_dict(), "step": step}, paths[-1])

    model = SmallCNN()
    model.load_state_dict(average_checkpoints(paths))
    recompute_bn(model, loader)

    model.eval()
    confmat = ConfusionMatrix(N_CLASSES)  # expect: DEV019
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(EVAL_DEVICE), y.to(EVAL_DEVICE)
            confmat.update(model(x).argmax(1), y)
    print("balanced accuracy of the soup:", round(confmat.compute(), 3))
    print(confmat.mat.tolist())


if __name__ == "__main__":
    main()
