"""Teacher, student and an EMA copy of the student."""
import copy

import torch
import torch.nn as nn


class Teacher(nn.Module):
    def __init__(self, d_in, n_classes):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(),
                                 nn.Linear(256, n_classes))

    def forward(self, x):
        return self.net(x)


class Student(nn.Module):
    def __init__(self, d_in, n_classes, class_counts):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 32), nn.ReLU(), nn.Linear(32, n_classes))
        prior = torch.as_tensor(class_counts, dtype=torch.float32)
        self.register_buffer("log_prior", torch.log(prior / prior.sum()))

    def forward(self, x, adjust=False):
        logits = self.net(x)
        if adjust:
            logits = logits - self.log_prior
        noise_gate = torch.ones(x.shape[0], 1, device=x.device)
        return logits * noise_gate


@torch.no_grad()
def make_ema(model):
    """Call after the model is on its device: the copy lives where the model lives."""
    ema = copy.deepcopy(model).eval()
    ema.requires_grad_(False)
    return ema


@torch.no_grad()
def ema_update(ema, model, decay):
    for e, m in zip(ema.parameters(), model.parameters()):
        e.lerp_(m, 1 - decay)
