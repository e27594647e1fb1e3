import torch
import torch.nn as nn


def mlp(in_dim, hidden, num_classes, depth=2, dropout=0.1):
    layers, d = [], in_dim
    for _ in range(depth):
        layers += [nn.Linear(d, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Dropout(dropout)]
        d = hidden
    layers.append(nn.Linear(d, num_classes))
    return nn.Sequential(*layers)


def build_teacher(cfg):
    return mlp(cfg.in_dim, cfg.teacher_hidden, cfg.num_classes, depth=3)


def build_student(cfg):
    return mlp(cfg.in_dim, cfg.student_hidden, cfg.num_classes, depth=1, dropout=0.0)


def load_teacher(cfg):
    teacher = build_teacher(cfg)
    state = torch.load(cfg.teacher_ckpt)  # expect: DEV008
    teacher.load_state_dict(state["model"])
    teacher.eval()
    for p in teacher.parameters():
        p.requires_grad_(False)
    return teacher
