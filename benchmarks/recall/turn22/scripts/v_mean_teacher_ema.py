"""Mean Teacher (Tarvainen & Valpola) on a toy two-moons-like problem.

Student is trained on a few labelled points plus a consistency term against an
EMA teacher on noisy unlabelled inputs.
"""
import argparse
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def make_data(n_lab=32, n_unlab=256, dim=8, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n_lab + n_unlab, dim, generator=g)
    y = (x[:, 0] * x[:, 1] > 0).long()
    return (x[:n_lab], y[:n_lab]), x[n_lab:]


class MLP(nn.Module):
    def __init__(self, dim=8, hidden=64, n_cls=2):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(dim, hidden), nn.ReLU(), nn.Dropout(0.2),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, n_cls),
        )

    def forward(self, x):
        return self.net(x)


@torch.no_grad()
def update_teacher(student, teacher, decay):
    for t_p, s_p in zip(teacher.parameters(), student.parameters()):
        t_p.mul_(decay).add_(s_p.detach(), alpha=1.0 - decay)


def sigmoid_rampup(step, length):
    if length == 0:
        return 1.0
    t = max(0.0, min(1.0, step / length))
    return float(torch.exp(torch.tensor(-5.0 * (1.0 - t) ** 2)))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--ema-decay", type=float, default=0.99)
    p.add_argument("--cons-weight", type=float, default=10.0)
    p.add_argument("--noise-std", type=float, default=0.15)
    p.add_argument("--no-cuda", action="store_true")
    args = p.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")

    (x_lab, y_lab), x_unlab = make_data()
    lab_loader = DataLoader(TensorDataset(x_lab, y_lab), batch_size=8, shuffle=True)
    unlab_loader = DataLoader(TensorDataset(x_unlab), batch_size=32, shuffle=True)

    student = MLP()
    teacher = copy.deepcopy(student)  # expect: DEV016
    for p_ in teacher.parameters():
        p_.requires_grad_(False)
    student.to(device)

    opt = torch.optim.Adam(student.parameters(), lr=1e-3)
    step, ramp_len = 0, 20
    for epoch in range(args.epochs):
        student.train()
        teacher.train()
        lab_iter = iter(lab_loader)
        for (xu,) in unlab_loader:
            try:
                xl, yl = next(lab_iter)
            except StopIteration:
                lab_iter = iter(lab_loader)
                xl, yl = next(lab_iter)
            xl, yl, xu = xl.to(device), yl.to(device), xu.to(device)

            noise = torch.randn(xu.size()) * args.noise_std  # expect: DEV006
            s_logits = student(torch.cat([xl, xu + noise]))
            with torch.no_grad():
                t_logits = teacher(xu + args.noise_std * torch.randn_like(xu))

            sup = F.cross_entropy(s_logits[: len(xl)], yl)
            cons = F.mse_loss(F.softmax(s_logits[len(xl):], 1), F.softmax(t_logits, 1))
            w = args.cons_weight * sigmoid_rampup(step, ramp_len)
            loss = sup + w * cons

            opt.zero_grad()
            loss.backward()
            opt.step()
            update_teacher(student, teacher, args.ema_decay)
            step += 1
        print(f"epoch {epoch} sup={sup.item():.3f} cons={cons.item():.4f} w={w:.2f}")


if __name__ == "__main__":
    main()
