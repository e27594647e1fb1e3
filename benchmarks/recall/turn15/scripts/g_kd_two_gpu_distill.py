"""Logit distillation from a wide teacher into a small student.

Teacher inference runs on the second card so the student gets the first one to itself.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def mlp(in_dim, hidden, out_dim, depth):
    layers, d = [], in_dim
    for _ in range(depth):
        layers += [nn.Linear(d, hidden), nn.GELU()]
        d = hidden
    layers.append(nn.Linear(d, out_dim))
    return nn.Sequential(*layers)


def kd_loss(student_logits, teacher_logits, labels, T=4.0, alpha=0.7):
    soft = F.kl_div(F.log_softmax(student_logits / T, dim=-1),
                    F.softmax(teacher_logits / T, dim=-1), reduction="batchmean") * (T * T)
    hard = F.cross_entropy(student_logits, labels)
    return alpha * soft + (1 - alpha) * hard


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--temperature", type=float, default=4.0)
    ap.add_argument("--alpha", type=float, default=0.7)
    args = ap.parse_args()

    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    teacher_device = torch.device("cuda:1" if torch.cuda.is_available() else "cpu")  # expect: DEV018

    x = torch.randn(256, 32)
    y = (x[:, :4].sum(1) > 0).long() + (x[:, 4:8].sum(1) > 0).long()
    loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)

    teacher = mlp(32, 512, 3, depth=4)
    teacher.eval()
    student = mlp(32, 64, 3, depth=2).to(device)
    opt = torch.optim.Adam(student.parameters(), lr=1e-3)

    for epoch in range(args.epochs):
        for xb, yb in loader:
            teacher.to(teacher_device)  # expect: DEV007
            with torch.no_grad():
                t_logits = teacher(xb.to(teacher_device)).to(device)
            xb, yb = xb.to(device), yb.to(device)
            s_logits = student(xb)
            loss = kd_loss(s_logits, t_logits, yb, args.temperature, args.alpha)
            opt.zero_grad()
            loss.backward()
            opt.step()
        acc = (s_logits.argmax(-1) == yb).float().mean().item()
        print(f"epoch {epoch} kd loss {loss.item():.4f} batch acc {acc:.2f}")


if __name__ == "__main__":
    main()
