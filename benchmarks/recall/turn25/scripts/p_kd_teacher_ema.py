"""Knowledge distillation: a wide teacher restored from its checkpoint, a
narrow student trained on soft targets + hard labels, and an EMA of the
student used for evaluation.

    python p_kd_teacher_ema.py --teacher-ckpt teacher.pt --epochs 2
(without --teacher-ckpt a random teacher is saved first, for a smoke run)
"""
import argparse
import copy
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def mlp(width, d_in=20, classes=5):
    return nn.Sequential(nn.Linear(d_in, width), nn.GELU(), nn.Linear(width, width), nn.GELU(), nn.Linear(width, classes))


def kd_loss(student_logits, teacher_logits, labels, T=4.0, alpha=0.7):
    soft = F.kl_div(
        F.log_softmax(student_logits / T, dim=-1), F.softmax(teacher_logits / T, dim=-1), reduction="batchmean"
    ) * (T * T)
    return alpha * soft + (1 - alpha) * F.cross_entropy(student_logits, labels)


@torch.no_grad()
def ema_update(ema, model, decay):
    for e, p in zip(ema.parameters(), model.parameters()):
        e.mul_(decay).add_(p.detach(), alpha=1 - decay)


@torch.no_grad()
def accuracy(model, loader, device):
    model.eval()
    hits = n = 0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        hits += (model(x).argmax(1) == y).sum().item()
        n += len(y)
    return hits / n


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--teacher-ckpt", default=None)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--ema-decay", type=float, default=0.99)
    parser.add_argument("--cpu", action="store_true")
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and not args.cpu else "cpu")

    if args.teacher_ckpt is None:
        args.teacher_ckpt = os.path.join(tempfile.gettempdir(), "p_kd_teacher.pt")
        torch.save({"state_dict": mlp(128).state_dict(), "acc": 0.0}, args.teacher_ckpt)

    teacher = mlp(128)
    ckpt = torch.load(args.teacher_ckpt)  # expect: DEV008
    teacher.load_state_dict(ckpt["state_dict"])
    teacher.to(device).eval()
    for p in teacher.parameters():
        p.requires_grad_(False)

    student = mlp(32)
    ema_student = copy.deepcopy(student)  # expect: DEV016
    ema_student.requires_grad_(False)
    student.to(device)
    optimizer = torch.optim.AdamW(student.parameters(), lr=2e-3)

    g = torch.Generator().manual_seed(0)
    x = torch.randn(512, 20, generator=g)
    y = (x[:, :5].argmax(1) + (x[:, 5] > 1).long()) % 5
    train = DataLoader(TensorDataset(x[:448], y[:448]), batch_size=64, shuffle=True)
    test = DataLoader(TensorDataset(x[448:], y[448:]), batch_size=64)

    for epoch in range(args.epochs):
        student.train()
        for xb, yb in train:
            xb, yb = xb.to(device), yb.to(device)
            with torch.no_grad():
                t_logits = teacher(xb)
            loss = kd_loss(student(xb), t_logits, yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            ema_update(ema_student, student, args.ema_decay)
        print(f"epoch {epoch}: loss {loss.item():.3f} student {accuracy(student, test, device):.3f} "
              f"ema {accuracy(ema_student, test, device):.3f}")


if __name__ == "__main__":
    main()
