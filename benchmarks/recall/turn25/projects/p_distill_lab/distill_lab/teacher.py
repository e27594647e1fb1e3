import os

import torch

from .models import build_teacher


def load_teacher(cfg):
    teacher = build_teacher(cfg)
    if not os.path.exists(cfg.teacher_ckpt):
        # smoke runs: a random teacher stands in for the fine-tuned one
        torch.save({"model": teacher.state_dict()}, cfg.teacher_ckpt)
    state = torch.load(cfg.teacher_ckpt)  # expect: DEV008
    teacher.load_state_dict(state["model"])
    teacher.requires_grad_(False)
    return teacher.eval()
