import torch
import torch.nn as nn
import torch.nn.functional as F


class DistillLoss(nn.Module):
    """Soft-target KL at temperature T plus class-weighted hard-label CE.

    The class weights live in the CrossEntropyLoss submodule's buffer, so the
    caller moves this module with .to(device) like any other.
    """

    def __init__(self, class_weights, temperature=2.0, alpha=0.5):
        super().__init__()
        self.hard = nn.CrossEntropyLoss(weight=torch.tensor(class_weights, dtype=torch.float))
        self.temperature = temperature
        self.alpha = alpha

    def forward(self, student_logits, teacher_logits, labels):
        t = self.temperature
        soft = F.kl_div(F.log_softmax(student_logits / t, -1), F.softmax(teacher_logits / t, -1),
                        reduction="batchmean") * t * t
        return self.alpha * soft + (1 - self.alpha) * self.hard(student_logits, labels)
