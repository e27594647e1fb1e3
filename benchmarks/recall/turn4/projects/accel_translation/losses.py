import torch
import torch.nn as nn


class LabelSmoothedCE(nn.Module):
    """Cross-entropy against a smoothed target distribution, ignoring padding."""

    def __init__(self, eps, pad_id=0):
        super().__init__()
        self.eps = eps
        self.pad_id = pad_id

    def forward(self, logits, target):
        lprobs = logits.log_softmax(-1).view(-1, logits.size(-1))
        target = target.reshape(-1)
        n, v = lprobs.shape
        true_dist = torch.full((n, v), self.eps / (v - 1))  # expect: DEV006
        true_dist.scatter_(1, target.unsqueeze(1), 1.0 - self.eps)
        keep = target.ne(self.pad_id)
        return -(true_dist * lprobs).sum(-1)[keep].mean()
