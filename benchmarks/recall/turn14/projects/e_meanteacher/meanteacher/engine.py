import itertools

import torch

from .losses import consistency_loss, sigmoid_rampup
from .metrics import classification_report


class MeanTeacherEngine:
    def __init__(self, student, teacher, criterion, cfg, device):
        self.cfg = cfg
        self.device = device
        self.student = student.to(device)
        self.teacher = teacher
        self.criterion = criterion
        self.optimizer = torch.optim.Adam(self.student.parameters(), lr=cfg.lr)
        self.global_step = 0

    def _noisy(self, x):
        return x + self.cfg.noise_std * torch.randn_like(x)

    @torch.no_grad()
    def update_teacher(self):
        # warm-up: plain average for the first steps, then the configured decay
        alpha = min(1 - 1 / (self.global_step + 1), self.cfg.ema_decay)
        for t, s in zip(self.teacher.parameters(), self.student.parameters()):
            t.mul_(alpha).add_(s.detach(), alpha=1 - alpha)
        for t, s in zip(self.teacher.buffers(), self.student.buffers()):
            t.copy_(s)

    def train_epoch(self, labeled_loader, unlabeled_loader, epoch):
        self.student.train()
        self.teacher.train()
        w = self.cfg.consistency_weight * sigmoid_rampup(epoch, 2)
        totals = {"sup": 0.0, "cons": 0.0}
        for (x, y), (u,) in zip(labeled_loader, itertools.cycle(unlabeled_loader)):
            x, y, u = x.to(self.device), y.to(self.device), u.to(self.device)
            sup = self.criterion(self.student(x), y)
            student_u = self.student(self._noisy(u))
            with torch.no_grad():
                teacher_u = self.teacher(self._noisy(u))
            cons = consistency_loss(student_u, teacher_u)
            loss = sup + w * cons
            self.optimizer.zero_grad(set_to_none=True)
            loss.backward()
            self.optimizer.step()
            self.global_step += 1
            self.update_teacher()
            totals["sup"] += sup.item()
            totals["cons"] += cons.item()
        n = len(labeled_loader)
        return {k: v / n for k, v in totals.items()}

    @torch.no_grad()
    def evaluate(self, loader, use_teacher=True):
        net = self.teacher if use_teacher else self.student
        net.eval()
        logits, targets = [], []
        for x, y in loader:
            logits.append(net(x.to(self.device)))
            targets.append(y)
        return classification_report(logits, targets, self.cfg.num_classes)

    def fit(self, labeled_loader, unlabeled_loader, val_loader):
        for epoch in range(self.cfg.epochs):
            losses = self.train_epoch(labeled_loader, unlabeled_loader, epoch)
            report = self.evaluate(val_loader)
            print(f"epoch {epoch}: sup {losses['sup']:.3f} cons {losses['cons']:.4f} "
                  f"teacher acc {report['accuracy']:.3f} bal {report['balanced_accuracy']:.3f} "
                  f"recall {report['per_class_recall']}")
