import torch
import torch.nn as nn
import torch.nn.functional as F


def build_hard_criterion(cfg):
    return nn.CrossEntropyLoss(weight=torch.tensor(cfg.class_weights), label_smoothing=cfg.label_smoothing)  # expect: DEV012


def soft_kd_loss(student_logits, teacher_logits, temperature):
    log_p = F.log_softmax(student_logits / temperature, dim=-1)
    q = F.softmax(teacher_logits / temperature, dim=-1)
    return F.kl_div(log_p, q, reduction="batchmean") * temperature ** 2


class DistillationLoss(nn.Module):
    def __init__(self, cfg, hard_criterion):
        super().__init__()
        self.hard = hard_criterion
        self.T = cfg.temperature
        self.alpha = cfg.alpha

    def forward(self, student_logits, teacher_logits, labels):
        soft = soft_kd_loss(student_logits, teacher_logits, self.T)
        return self.alpha * soft + (1 - self.alpha) * self.hard(student_logits, labels)
