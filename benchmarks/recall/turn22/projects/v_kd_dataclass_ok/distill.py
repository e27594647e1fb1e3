"""Entry point: python distill.py"""
import os

import torch
from torch.utils.data import DataLoader, TensorDataset

from kdkit import KDConfig, Student, build_hard_loss, kd_loss, load_teacher, make_ema, per_class_recall, save_teacher
from kdkit.models import ema_update


def toy(cfg, n_per_class, seed):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(cfg.n_classes, cfg.d_in, generator=g) * 1.5
    y = torch.cat([torch.full((n,), c) for c, n in enumerate(n_per_class)])
    x = centers[y] + torch.randn(len(y), cfg.d_in, generator=torch.Generator().manual_seed(seed + 1))
    return x, y


def main():
    cfg = KDConfig()
    device = torch.device(cfg.device)
    x, y = toy(cfg, cfg.class_counts, seed=0)
    if not os.path.exists(cfg.teacher_path):
        save_teacher(cfg.teacher_path, cfg, x, y)
    teacher = load_teacher(cfg)

    student = Student(cfg.d_in, cfg.n_classes, cfg.class_counts).to(device)
    ema = make_ema(student)
    hard = build_hard_loss(cfg.class_counts, device)
    opt = torch.optim.Adam(student.parameters(), lr=cfg.lr)
    loader = DataLoader(TensorDataset(x, y), batch_size=cfg.batch_size, shuffle=True)
    test = DataLoader(TensorDataset(*toy(cfg, (50, 50, 50, 50), seed=0)), batch_size=100)

    for epoch in range(cfg.epochs):
        student.train()
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            with torch.no_grad():
                t_logits = teacher(xb)
            s_logits = student(xb)
            loss = cfg.alpha * kd_loss(s_logits, t_logits, cfg.temperature) + (1 - cfg.alpha) * hard(s_logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema_update(ema, student, cfg.ema_decay)
        rec = per_class_recall(ema, test, device, cfg.n_classes)
        print(f"epoch {epoch}: loss={loss.item():.3f} recall={[round(float(r), 2) for r in rec]}")


if __name__ == "__main__":
    main()
