"""Distil a wide teacher MLP into a small student, tracking an EMA of the student.

    python train.py                # trains a teacher first if the checkpoint is missing
    python train.py --epochs 5
"""
import argparse
import os

import torch
import torch.nn.functional as F

from kdkit import DistillConfig, ModelEMA
from kdkit.data import make_loaders
from kdkit.losses import DistillationLoss, build_hard_criterion
from kdkit.models import build_student, build_teacher, load_teacher


def train_teacher(cfg, train_loader):
    teacher = build_teacher(cfg).to(cfg.device)
    opt = torch.optim.Adam(teacher.parameters(), lr=cfg.lr)
    for _ in range(cfg.epochs):
        for x, y in train_loader:
            x, y = x.to(cfg.device), y.to(cfg.device)
            loss = F.cross_entropy(teacher(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    torch.save({"model": teacher.state_dict()}, cfg.teacher_ckpt)


@torch.no_grad()
def accuracy(model, loader, device):
    model.eval()
    correct = total = 0
    for x, y in loader:
        correct += (model(x.to(device)).argmax(1).cpu() == y).sum().item()
        total += y.numel()
    return correct / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=DistillConfig.epochs)
    ap.add_argument("--teacher-ckpt", default=DistillConfig.teacher_ckpt)
    args = ap.parse_args()
    cfg = DistillConfig(epochs=args.epochs, teacher_ckpt=args.teacher_ckpt)

    train_loader, val_loader = make_loaders(cfg)
    if not os.path.exists(cfg.teacher_ckpt):
        train_teacher(cfg, train_loader)
    teacher = load_teacher(cfg).to(cfg.device)

    student = build_student(cfg)
    ema = ModelEMA(student, decay=cfg.ema_decay)
    student.to(cfg.device)

    criterion = DistillationLoss(cfg, build_hard_criterion(cfg))
    optimizer = torch.optim.AdamW(student.parameters(), lr=cfg.lr, weight_decay=1e-4)

    for epoch in range(cfg.epochs):
        student.train()
        for x, y in train_loader:
            x, y = x.to(cfg.device), y.to(cfg.device)
            with torch.no_grad():
                t_logits = teacher(x)
            loss = criterion(student(x), t_logits, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            ema.update(student)
        print(f"epoch {epoch}: loss {loss.item():.3f}  "
              f"student {accuracy(student, val_loader, cfg.device):.3f}  "
              f"ema {accuracy(ema.module, val_loader, cfg.device):.3f}  "
              f"teacher {accuracy(teacher, val_loader, cfg.device):.3f}")


if __name__ == "__main__":
    main()
