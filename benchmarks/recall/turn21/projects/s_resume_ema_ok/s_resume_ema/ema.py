import copy

import torch


class ModelEMA:
    """Keeps a frozen copy of a model; build it after the model was moved."""

    def __init__(self, model, decay=0.999):
        self.module = copy.deepcopy(model).eval()
        self.module.requires_grad_(False)
        self.decay = decay

    @torch.no_grad()
    def update(self, model):
        for e, m in zip(self.module.state_dict().values(), model.state_dict().values()):
            if e.dtype.is_floating_point:
                e.lerp_(m.detach(), 1.0 - self.decay)
            else:
                e.copy_(m)

    def state_dict(self):
        return self.module.state_dict()

    def load_state_dict(self, state):
        self.module.load_state_dict(state)
