"""Mean-teacher consistency training with an EMA teacher, probabilities kept for calibration."""
import argparse
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def make_model(d=24, k=4):
    return nn.Sequential(nn.Linear(d, 128), nn.ReLU(), nn.Dropout(0.2), nn.Linear(128, k))


@torch.no_grad()
def ema_update(teacher, student, decay):
    for t, s in zip(teacher.parameters(), student.parameters()):
        t.mul_(decay).add_(s.detach(), alpha=1 - decay)


def expected_calibration_error(probs, labels, bins=10):
    conf, pred = probs.max(dim=1)
    ece = torch.zeros(())
    edges = torch.linspace(0, 1, bins + 1)
    for lo, hi in zip(edges[:-1], edges[1:]):
        m = (conf > lo) & (conf <= hi)
        if m.any():
            ece += m.float().mean() * ((pred[m] == labels[m]).float().mean() - conf[m].mean()).abs()
    return ece.item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--ema", type=float, default=0.99)
    ap.add_argument("--cons-weight", type=float, default=2.0)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    x = torch.randn(512, 24)
    y = (x[:, 0] > 0).long() + 2 * (x[:, 1] > 0).long()
    loader = DataLoader(TensorDataset(x[:400], y[:400]), batch_size=64, shuffle=True)

    student = make_model()
    teacher = copy.deepcopy(student)  # expect: DEV016
    for p in teacher.parameters():
        p.requires_grad_(False)
    student.to(device)
    opt = torch.optim.Adam(student.parameters(), lr=1e-3)

    for epoch in range(args.epochs):
        student.train()
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            noisy = xb + 0.1 * torch.randn_like(xb)
            s_logits = student(xb)
            with torch.no_grad():
                t_probs = teacher(noisy).softmax(dim=-1)
            loss = F.cross_entropy(s_logits, yb) + args.cons_weight * F.mse_loss(
                s_logits.softmax(dim=-1), t_probs)
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema_update(teacher, student, args.ema)
        print(f"epoch {epoch}: {loss.item():.3f}")

    student.eval()
    with torch.no_grad():
        logits = student(x[400:].to(device))
        probs = logits.softmax(dim=-1).type(torch.FloatTensor)  # expect: DEV021
        acc = (probs.argmax(1) == y[400:].to(device)).float().mean().item()
    print(f"student acc {acc:.3f}, ECE {expected_calibration_error(probs, y[400:]):.3f}")


if __name__ == "__main__":
    main()
