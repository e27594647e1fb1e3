"""Knowledge distillation with FitNets-style hints: a big teacher from a checkpoint, a small student."""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Teacher(nn.Module):
    def __init__(self, d_in=32, n_cls=10):
        super().__init__()
        self.stage1 = nn.Sequential(nn.Linear(d_in, 128), nn.ReLU())
        self.stage2 = nn.Sequential(nn.Linear(128, 128), nn.ReLU())
        self.head = nn.Linear(128, n_cls)

    def forward(self, x):
        h1 = self.stage1(x)
        h2 = self.stage2(h1)
        return self.head(h2), [h1, h2]


class Student(nn.Module):
    def __init__(self, d_in=32, n_cls=10):
        super().__init__()
        self.stage1 = nn.Sequential(nn.Linear(d_in, 32), nn.ReLU())
        self.stage2 = nn.Sequential(nn.Linear(32, 32), nn.ReLU())
        self.head = nn.Linear(32, n_cls)
        self.hint_adapters = nn.ModuleList([nn.Linear(32, 128), nn.Linear(32, 128)])

    def forward(self, x):
        h1 = self.stage1(x)
        h2 = self.stage2(h1)
        hints = [adapt(h) for adapt, h in zip(self.hint_adapters, [h1, h2])]
        return self.head(h2), hints


def kd_loss(s_logits, t_logits, T):
    p_t = F.softmax(t_logits / T, dim=-1)
    log_p_s = F.log_softmax(s_logits / T, dim=-1)
    return F.kl_div(log_p_s, p_t, reduction="batchmean") * T * T


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--teacher", default="t_kd_teacher_ok_weights.pt")
    ap.add_argument("--temperature", type=float, default=4.0)
    ap.add_argument("--alpha", type=float, default=0.7)
    ap.add_argument("--beta", type=float, default=0.1)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--cpu", action="store_true")
    args = ap.parse_args()
    device = torch.device("cpu" if args.cpu or not torch.cuda.is_available() else "cuda")

    if not os.path.exists(args.teacher):
        torch.save(Teacher().state_dict(), args.teacher)
    teacher = Teacher()
    teacher.load_state_dict(torch.load(args.teacher, map_location="cpu"))
    teacher.to(device).eval()

    student = Student().to(device)
    opt = torch.optim.Adam(student.parameters(), lr=1e-3)

    ds = TensorDataset(torch.randn(256, 32), torch.randint(0, 10, (256,)))
    loader = DataLoader(ds, batch_size=32, shuffle=True)
    for epoch in range(args.epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            with torch.no_grad():
                t_logits, t_feats = teacher(x)
            s_logits, s_hints = student(x)
            hard = F.cross_entropy(s_logits, y)
            soft = kd_loss(s_logits, t_logits, args.temperature)
            hint = sum(F.mse_loss(h, f) for h, f in zip(s_hints, t_feats))
            loss = (1 - args.alpha) * hard + args.alpha * soft + args.beta * hint
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: {loss.item():.4f}")


if __name__ == "__main__":
    main()
