"""Entry point: python train.py [--epochs N] [--teacher-ckpt PATH] [--device DEV]"""
import argparse
import os
import tempfile

import torch

from kd_toolkit.config import KDConfig
from kd_toolkit.data import make_loaders
from kd_toolkit.evaluate import confusion_report
from kd_toolkit.losses import DistillLoss
from kd_toolkit.models import build_student
from kd_toolkit.teacher import load_teacher


def parse_args():
    cfg = KDConfig(teacher_ckpt=os.path.join(tempfile.gettempdir(), "p_kd_toolkit_teacher.pt"))
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=cfg.epochs)
    parser.add_argument("--teacher-ckpt", default=cfg.teacher_ckpt)
    parser.add_argument("--device", default=cfg.device)
    args = parser.parse_args()
    cfg.epochs, cfg.teacher_ckpt, cfg.device = args.epochs, args.teacher_ckpt, args.device
    return cfg


def run(cfg):
    device = torch.device(cfg.device)
    train_loader, valid_loader = make_loaders(cfg)

    teacher = load_teacher(cfg).to(device)
    student = build_student(cfg).to(device)
    criterion = DistillLoss(cfg.class_weights, cfg.temperature, cfg.alpha).to(device)
    optimizer = torch.optim.AdamW(student.parameters(), lr=cfg.lr)

    for epoch in range(cfg.epochs):
        student.train()
        for ids, labels in train_loader:
            ids, labels = ids.to(device), labels.to(device)
            with torch.no_grad():
                teacher_logits = teacher(ids)
            loss = criterion(student(ids), teacher_logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        report = confusion_report(student, valid_loader, device, cfg.num_classes)
        print(f"epoch {epoch}: loss {loss.item():.3f} acc {report['accuracy']:.3f} recall {report['per_class_recall']}")


if __name__ == "__main__":
    run(parse_args())
