"""Hard-label (class-balanced) and soft-label (KD) losses."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def build_hard_loss(class_counts, device):
    counts = torch.as_tensor(class_counts, dtype=torch.float32)
    weights = counts.sum() / (len(counts) * counts)
    return nn.CrossEntropyLoss(weight=weights.to(device))


def kd_loss(student_logits, teacher_logits, T):
    return F.kl_div(F.log_softmax(student_logits / T, -1), F.softmax(teacher_logits / T, -1),
                    reduction="batchmean") * T * T
