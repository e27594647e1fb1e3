"""Response-based knowledge distillation (Hinton et al.) with a small trainer class.

The teacher is trained first for a couple of epochs on the same toy data, saved,
then reloaded frozen for distillation into a thinner student.
"""
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def conv_net(width, num_classes=10):
    return nn.Sequential(
        nn.Conv2d(1, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(width, 2 * width, 3, padding=1), nn.BatchNorm2d(2 * width), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(2 * width, num_classes),
    )


def toy_digits(n=256, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 10, (n,), generator=g)
    x = torch.randn(n, 1, 16, 16, generator=g) * 0.3
    x[torch.arange(n), 0, y, y] += 3.0  # a bright pixel whose position encodes the class
    return TensorDataset(x, y)


class Distiller:
    def __init__(self, teacher, student, device, temperature=4.0, alpha=0.7, lr=1e-3):
        self.device = device
        self.teacher = teacher.to(device).eval()
        for p in self.teacher.parameters():
            p.requires_grad_(False)
        self.student = student.to(device)
        self.T = temperature
        self.alpha = alpha
        self.optimizer = torch.optim.Adam(self.student.parameters(), lr=lr)

    def soft_loss(self, s_logits, t_logits):
        return F.kl_div(
            F.log_softmax(s_logits / self.T, dim=-1),
            F.softmax(t_logits / self.T, dim=-1),
            reduction="batchmean",
        ) * self.T ** 2

    def train_step(self, images, labels):
        images = images.to(self.device, non_blocking=True)
        with torch.no_grad():
            t_logits = self.teacher(images)
        s_logits = self.student(images)
        hard = F.cross_entropy(s_logits, labels)  # expect: DEV004
        loss = self.alpha * self.soft_loss(s_logits, t_logits) + (1 - self.alpha) * hard
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        self.optimizer.step()
        return loss.item()

    @torch.no_grad()
    def evaluate(self, loader):
        self.student.eval()
        correct = total = 0
        for images, labels in loader:
            pred = self.student(images.to(self.device)).argmax(1).cpu()
            correct += (pred == labels).sum().item()
            total += labels.numel()
        self.student.train()
        return correct / total


def pretrain_teacher(path, device, epochs=2):
    teacher = conv_net(32).to(device)
    opt = torch.optim.Adam(teacher.parameters(), lr=1e-3)
    for _ in range(epochs):
        for x, y in DataLoader(toy_digits(), batch_size=64, shuffle=True):
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(teacher(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    torch.save(teacher.state_dict(), path)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ckpt = os.path.join(tempfile.gettempdir(), "p_kd_teacher.pt")
    pretrain_teacher(ckpt, device)

    teacher = conv_net(32)
    teacher.load_state_dict(torch.load(ckpt, map_location="cpu"))
    student = conv_net(8)
    distiller = Distiller(teacher, student, device)

    train_loader = DataLoader(toy_digits(seed=1), batch_size=64, shuffle=True)
    val_loader = DataLoader(toy_digits(n=128, seed=2), batch_size=64)
    for epoch in range(3):
        losses = [distiller.train_step(x, y) for x, y in train_loader]
        print(f"epoch {epoch}: loss {sum(losses) / len(losses):.3f}  student acc {distiller.evaluate(val_loader):.3f}")


if __name__ == "__main__":
    main()
