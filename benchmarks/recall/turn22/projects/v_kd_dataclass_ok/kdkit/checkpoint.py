"""Teacher checkpoints: saved from wherever they were trained, loaded onto the run's device."""
import os

import torch
import torch.nn.functional as F

from .models import Teacher


def save_teacher(path, cfg, x, y):
    teacher = Teacher(cfg.d_in, cfg.n_classes).to(cfg.device)
    opt = torch.optim.Adam(teacher.parameters(), lr=1e-3)
    x, y = x.to(cfg.device), y.to(cfg.device)
    for _ in range(150):
        loss = F.cross_entropy(teacher(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    torch.save({"model": teacher.state_dict()}, path)


def load_teacher(cfg):
    if not os.path.exists(cfg.teacher_path):
        raise FileNotFoundError(cfg.teacher_path)
    state = torch.load(cfg.teacher_path, map_location=cfg.device)
    teacher = Teacher(cfg.d_in, cfg.n_classes)
    teacher.load_state_dict(state["model"])
    return teacher.to(cfg.device).eval().requires_grad_(False)
