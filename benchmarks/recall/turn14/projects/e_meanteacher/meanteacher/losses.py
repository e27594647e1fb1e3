import torch
import torch.nn as nn
import torch.nn.functional as F


def build_criterion(cfg):
    weight = torch.tensor(cfg.class_weights, dtype=torch.float32)
    return nn.CrossEntropyLoss(weight=weight, label_smoothing=cfg.label_smoothing)  # expect: DEV012


def consistency_loss(student_logits, teacher_logits):
    """MSE between class distributions, as in the mean-teacher paper."""
    return F.mse_loss(F.softmax(student_logits, dim=-1), F.softmax(teacher_logits, dim=-1))


def sigmoid_rampup(epoch, rampup_epochs):
    if rampup_epochs == 0:
        return 1.0
    phase = 1.0 - min(epoch, rampup_epochs) / rampup_epochs
    return float(torch.exp(torch.tensor(-5.0 * phase * phase)))
