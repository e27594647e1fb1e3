import argparse
import os
import tempfile

from .config import DistillConfig


def parse_args(argv=None):
    cfg = DistillConfig(teacher_ckpt=os.path.join(tempfile.gettempdir(), "p_distill_lab_teacher.pt"))
    parser = argparse.ArgumentParser(description="distil an intent classifier")
    parser.add_argument("--epochs", type=int, default=cfg.epochs)
    parser.add_argument("--teacher-ckpt", default=cfg.teacher_ckpt)
    parser.add_argument("--device", default=cfg.device)
    args = parser.parse_args(argv)
    cfg.epochs, cfg.teacher_ckpt, cfg.device = args.epochs, args.teacher_ckpt, args.device
    return cfg

