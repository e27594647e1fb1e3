"""Knowledge distillation (Hinton et al.) from a frozen, half-precision teacher
into a small student. Hard labels use a class-balanced cross-entropy."""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

N_CLS = 5


def teacher_net():
    return nn.Sequential(nn.Linear(32, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, N_CLS))


def student_net():
    return nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, N_CLS))


def synthetic(n=400, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 32, generator=g)
    logits = x[:, :N_CLS] * torch.tensor([3.0, 1.0, 1.0, 0.5, 0.5])
    return x, logits.argmax(1)


def ensure_teacher(path, device):
    """Pre-train the teacher once (on whatever machine runs first) and cache it."""
    if os.path.exists(path):
        return
    x, y = synthetic(seed=1)
    x, y = x.to(device), y.to(device)
    t = teacher_net().to(device)
    opt = torch.optim.Adam(t.parameters(), lr=1e-3)
    for _ in range(100):
        loss = F.cross_entropy(t(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    torch.save({"state_dict": t.state_dict()}, path)


def kd_loss(student_logits, teacher_logits, T):
    return F.kl_div(F.log_softmax(student_logits / T, 1), F.softmax(teacher_logits / T, 1),
                    reduction="batchmean") * T * T


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--teacher-ckpt", default="/tmp/v_kd_teacher.pt")
    ap.add_argument("--T", type=float, default=4.0)
    ap.add_argument("--alpha", type=float, default=0.7)
    ap.add_argument("--epochs", type=int, default=3)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    ensure_teacher(args.teacher_ckpt, device)
    teacher = teacher_net()
    ckpt = torch.load(args.teacher_ckpt)  # expect: DEV008
    teacher.load_state_dict(ckpt["state_dict"])
    teacher.requires_grad_(False)
    teacher.eval()
    use_half = device.type == "cuda"
    if use_half:
        teacher.half()
    teacher.to(device)

    student = student_net().to(device)
    x, y = synthetic()
    counts = torch.bincount(y, minlength=N_CLS).float()
    class_w = counts.sum() / (N_CLS * counts.clamp_min(1))
    hard_criterion = nn.CrossEntropyLoss(weight=class_w)  # expect: DEV012
    opt = torch.optim.Adam(student.parameters(), lr=3e-3)
    loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)

    for epoch in range(args.epochs):
        student.train()
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            with torch.no_grad():
                t_logits = teacher(xb.half() if use_half else xb)
                t_logits = t_logits.type(torch.FloatTensor)  # expect: DEV021
            s_logits = student(xb)
            loss = args.alpha * kd_loss(s_logits, t_logits, args.T) + (1 - args.alpha) * hard_criterion(s_logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
