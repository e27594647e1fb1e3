"""Logit distillation with the (large) frozen teacher kept on its own GPU so that the
student gets the whole first card. Falls back to the CPU when there is no GPU."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class DistillConfig:
    temperature: float = 4.0
    alpha: float = 0.7
    epochs: int = 2
    lr: float = 1e-3
    batch_size: int = 16


def mlp(width, depth, d_in=20, n_cls=6):
    layers, d = [], d_in
    for _ in range(depth):
        layers += [nn.Linear(d, width), nn.ReLU()]
        d = width
    return nn.Sequential(*layers, nn.Linear(d, n_cls))


def kd_loss(s_logits, t_logits, labels, cfg):
    T = cfg.temperature
    soft = F.kl_div(F.log_softmax(s_logits / T, -1), F.softmax(t_logits / T, -1), reduction="batchmean") * T * T
    return cfg.alpha * soft + (1 - cfg.alpha) * F.cross_entropy(s_logits, labels)


def main(cfg=DistillConfig()):
    torch.manual_seed(0)
    has_gpu = torch.cuda.is_available()
    student_device = torch.device("cuda:0" if has_gpu else "cpu")
    teacher_device = torch.device("cuda:1" if has_gpu else "cpu")  # expect: DEV018

    teacher = mlp(256, 4).to(teacher_device).eval()
    student = mlp(32, 2).to(student_device)
    opt = torch.optim.Adam(student.parameters(), lr=cfg.lr)

    ds = TensorDataset(torch.randn(96, 20), torch.randint(0, 6, (96,)))
    loader = DataLoader(ds, batch_size=cfg.batch_size, shuffle=True)
    for epoch in range(cfg.epochs):
        for x, y in loader:
            with torch.no_grad():
                t_logits = teacher(x.to(teacher_device)).to(student_device)
            x, y = x.to(student_device), y.to(student_device)
            loss = kd_loss(student(x), t_logits, y, cfg)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} kd loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
