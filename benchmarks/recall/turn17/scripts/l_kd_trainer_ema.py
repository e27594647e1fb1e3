"""Distillation trainer: frozen teacher, student trained on a blend of the
temperature-scaled KL to the teacher and the hard-label CE, plus an EMA copy
of the student that is used for evaluation.
"""
import argparse
import os
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class KDConfig:
    temperature: float = 3.0
    alpha: float = 0.7
    epochs: int = 3
    lr: float = 2e-3
    ema_decay: float = 0.99
    teacher_path: str = "kd_teacher_mlp.pt"
    batch_size: int = 64


def make_mlp(widths):
    layers = []
    for a, b in zip(widths[:-2], widths[1:-1]):
        layers += [nn.Linear(a, b), nn.LayerNorm(b), nn.GELU()]
    layers.append(nn.Linear(widths[-2], widths[-1]))
    return nn.Sequential(*layers)


def spiral_data(n, classes=4, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, classes, (n,), generator=g)
    r = torch.rand(n, generator=g)
    theta = y.float() * (2 * torch.pi / classes) + r * 3.0 + 0.2 * torch.randn(n, generator=g)
    x = torch.stack([r * torch.cos(theta), r * torch.sin(theta)], 1)
    x = torch.cat([x, 0.1 * torch.randn(n, 14, generator=g)], 1)
    return TensorDataset(x, y)


class DistillTrainer:
    def __init__(self, cfg: KDConfig, device):
        self.cfg = cfg
        self.device = device
        self.T = torch.tensor(cfg.temperature)

        self.teacher = make_mlp([16, 256, 256, 4])
        self.teacher.load_state_dict(torch.load(cfg.teacher_path, map_location=device))
        self.teacher.to(device).eval().requires_grad_(False)

        self.student = make_mlp([16, 32, 4]).to(device)
        self.ema = AveragedModel(self.student, multi_avg_fn=get_ema_multi_avg_fn(cfg.ema_decay))
        self.opt = torch.optim.AdamW(self.student.parameters(), lr=cfg.lr)

    def loss(self, x, y):
        with torch.no_grad():
            t_logits = self.teacher(x)
        s_logits = self.student(x)
        kd = F.kl_div(F.log_softmax(s_logits / self.T, dim=-1), F.softmax(t_logits / self.T, dim=-1),
                      reduction="batchmean") * self.T ** 2
        ce = F.cross_entropy(s_logits, y)
        return self.cfg.alpha * kd + (1 - self.cfg.alpha) * ce

    def fit(self, train_loader, val_loader):
        for epoch in range(self.cfg.epochs):
            self.student.train()
            for x, y in train_loader:
                x, y = x.to(self.device), y.to(self.device)
                loss = self.loss(x, y)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
                self.ema.update_parameters(self.student)
            print(f"epoch {epoch}: loss {loss.item():.4f} "
                  f"student {self.evaluate(self.student, val_loader):.3f} "
                  f"ema {self.evaluate(self.ema, val_loader):.3f} "
                  f"teacher {self.evaluate(self.teacher, val_loader):.3f}")

    @torch.no_grad()
    def evaluate(self, model, loader):
        model.eval()
        hits = 0
        for x, y in loader:
            hits += (model(x.to(self.device)).argmax(-1) == y.to(self.device)).sum().item()
        return hits / len(loader.dataset)


def pretrain_teacher(cfg, loader, device):
    teacher = make_mlp([16, 256, 256, 4]).to(device)
    opt = torch.optim.Adam(teacher.parameters(), lr=3e-3)
    for _ in range(4):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(teacher(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    torch.save(teacher.state_dict(), cfg.teacher_path)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--temperature", type=float, default=3.0)
    ap.add_argument("--epochs", type=int, default=3)
    a = ap.parse_args()
    cfg = KDConfig(temperature=a.temperature, epochs=a.epochs)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)

    train_loader = DataLoader(spiral_data(2000, seed=0), batch_size=cfg.batch_size, shuffle=True)
    val_loader = DataLoader(spiral_data(500, seed=1), batch_size=256)
    if not os.path.exists(cfg.teacher_path):
        pretrain_teacher(cfg, train_loader, device)
    DistillTrainer(cfg, device).fit(train_loader, val_loader)
