"""Semi-supervised mean teacher: the teacher is an EMA copy of the student and produces targets for
the consistency loss on unlabeled images.

Thread: https://github.com/lucidrains/DALLE2-pytorch/issues/87 (EMA update: Expected all tensors to be
on the same device, cuda:0 and cpu).
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def ema_update(teacher, student, decay=0.99):
    with torch.no_grad():
        for t, s in zip(teacher.parameters(), student.parameters()):
            t.mul_(decay).add_(s, alpha=1 - decay)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    student = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 5))
    teacher = copy.deepcopy(student)  # expect: DEV016
    for p in teacher.parameters():
        p.requires_grad_(False)
    student = student.to(device)
    opt = torch.optim.Adam(student.parameters(), lr=1e-3)
    labeled = DataLoader(TensorDataset(torch.randn(64, 20), torch.randint(0, 5, (64,))), batch_size=16)
    unlabeled = DataLoader(TensorDataset(torch.randn(64, 20)), batch_size=16)
    for (x, y), (u,) in zip(labeled, unlabeled):
        x, y, u = x.to(device), y.to(device), u.to(device)
        with torch.no_grad():
            target = teacher(u).softmax(-1)
        loss = F.cross_entropy(student(x), y) + F.mse_loss(student(u).softmax(-1), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema_update(teacher, student)
    print(loss.item())


if __name__ == "__main__":
    main()
