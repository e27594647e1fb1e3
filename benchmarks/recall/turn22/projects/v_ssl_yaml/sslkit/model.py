"""Classifier with logit adjustment (Menon et al.) for a long-tailed label prior."""
import torch
import torch.nn as nn


class LogitAdjustedNet(nn.Module):
    def __init__(self, d_in, n_classes, class_prior, hidden=64, tau=1.0):
        super().__init__()
        self.tau = tau
        self.backbone = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.fc = nn.Linear(hidden, n_classes)
        prior = torch.as_tensor(class_prior, dtype=torch.float32)
        self.log_prior = torch.log(prior / prior.sum())  # expect: DEV010

    def forward(self, x, adjust=False):
        """adjust=True applies post-hoc logit adjustment (used for prediction)."""
        logits = self.fc(self.backbone(x))
        if adjust:
            logits = logits - self.tau * self.log_prior
        return logits
