"""Exponential-moving-average teacher used for pseudo-labels and evaluation."""
import copy

import torch


class EMATeacher:
    def __init__(self, model, decay=0.999):
        self.decay = decay
        self.module = copy.deepcopy(model)  # expect: DEV016
        self.module.eval()
        for p in self.module.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        for e, m in zip(self.module.state_dict().values(), model.state_dict().values()):
            if e.dtype.is_floating_point:
                e.mul_(self.decay).add_(m.detach(), alpha=1 - self.decay)
            else:
                e.copy_(m)

    def __call__(self, *args, **kwargs):
        return self.module(*args, **kwargs)
