"""Entry point: python train.py --epochs 3 [--cpu]"""
import os
import tempfile

import torch

from meanteacher.config import Config
from meanteacher.data import make_loaders
from meanteacher.engine import MeanTeacherEngine
from meanteacher.losses import build_criterion
from meanteacher.models import build_models


def main():
    cfg = Config.from_args()
    torch.manual_seed(cfg.seed)
    device = torch.device("cuda" if torch.cuda.is_available() and not cfg.cpu else "cpu")

    labeled, unlabeled, val = make_loaders(cfg)
    student, teacher = build_models(cfg)
    criterion = build_criterion(cfg)
    engine = MeanTeacherEngine(student, teacher, criterion, cfg, device)
    engine.fit(labeled, unlabeled, val)
    torch.save({"teacher": engine.teacher.state_dict(), "config": vars(cfg)}, os.path.join(tempfile.gettempdir(), "meanteacher_last.pt"))


if __name__ == "__main__":
    main()
