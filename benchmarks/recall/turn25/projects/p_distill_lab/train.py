"""Entry point: python train.py [--epochs N] [--teacher-ckpt PATH] [--device DEV]"""
import torch

from distill_lab.cli import parse_args
from distill_lab.data import make_loaders
from distill_lab.evaluate import confusion_report
from distill_lab.losses import DistillLoss
from distill_lab.models import build_student
from distill_lab.teacher import load_teacher


def run(cfg):
    device = torch.device(cfg.device)
    train_loader, valid_loader = make_loaders(cfg)

    teacher = load_teacher(cfg).to(device)
    student = build_student(cfg).to(device)
    criterion = DistillLoss(cfg.class_weights, cfg.temperature, cfg.alpha)
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
