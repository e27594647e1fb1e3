#!/usr/bin/env python
"""Knowledge distillation: wide CNN teacher -> small CNN student (Hinton et al.).

loss = alpha * T^2 * KL(softmax(t/T) || softmax(s/T)) + (1 - alpha) * CE(s, y)

If --teacher-ckpt does not exist yet the teacher is trained first and saved there.
"""
import argparse
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def conv_block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class TeacherNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(conv_block(3, 64), conv_block(64, 64), nn.MaxPool2d(2),
                                      conv_block(64, 128), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(128, num_classes)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


class StudentNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(conv_block(3, 16), nn.MaxPool2d(2), conv_block(16, 32),
                                      nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(32, num_classes)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


def fake_cifar(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 10, (n,), generator=g)
    x = torch.randn(n, 3, 16, 16, generator=g) * 0.5
    x[:, 0] += (y.float() / 10.0).view(-1, 1, 1)  # a learnable signal
    return TensorDataset(x, y)


def kd_kl(student_logits, teacher_logits, T):
    log_p_s = F.log_softmax(student_logits / T, dim=1)
    p_t = F.softmax(teacher_logits / T, dim=1)
    return F.kl_div(log_p_s, p_t, reduction="batchmean") * (T * T)


def train_teacher(loader, device, epochs, path):
    teacher = TeacherNet().to(device)
    opt = torch.optim.SGD(teacher.parameters(), lr=0.05, momentum=0.9)
    for _ in range(epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(teacher(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    torch.save({"model": teacher.state_dict()}, path)


def load_teacher(path):
    teacher = TeacherNet()
    state = torch.load(path)  # expect: DEV008
    teacher.load_state_dict(state["model"])
    return teacher.eval()


@torch.no_grad()
def accuracy(model, loader, device):
    model.eval()
    correct = total = 0
    for x, y in loader:
        pred = model(x.to(device)).argmax(1).cpu()
        correct += (pred == y).sum().item()
        total += y.numel()
    return correct / total


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--teacher-ckpt", default="teacher_kd.pt")
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--teacher-epochs", type=int, default=1)
    p.add_argument("--temperature", type=float, default=4.0)
    p.add_argument("--alpha", type=float, default=0.9)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--cpu", action="store_true")
    args = p.parse_args()

    device = torch.device("cpu" if args.cpu or not torch.cuda.is_available() else "cuda")
    train_loader = DataLoader(fake_cifar(512, 0), batch_size=64, shuffle=True)
    val_loader = DataLoader(fake_cifar(256, 1), batch_size=128)

    if not os.path.exists(args.teacher_ckpt):
        print("no teacher checkpoint, training one first")
        train_teacher(train_loader, device, args.teacher_epochs, args.teacher_ckpt)
    teacher = load_teacher(args.teacher_ckpt)

    student = StudentNet().to(device)
    opt = torch.optim.SGD(student.parameters(), lr=args.lr, momentum=0.9, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs * len(train_loader))

    for epoch in range(args.epochs):
        student.train()
        t0 = time.time()
        for images, labels in train_loader:
            images = images.to(device, non_blocking=True)
            teacher.to(device)  # expect: DEV007
            with torch.no_grad():
                t_logits = teacher(images)
            s_logits = student(images)
            soft = kd_kl(s_logits, t_logits, args.temperature)
            hard = F.cross_entropy(s_logits, labels)  # expect: DEV004
            loss = args.alpha * soft + (1.0 - args.alpha) * hard
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
        print(f"epoch {epoch}: student acc {accuracy(student, val_loader, device):.3f} "
              f"({time.time() - t0:.1f}s)")
    print(f"teacher acc {accuracy(teacher, val_loader, device):.3f}")


if __name__ == "__main__":
    main()
