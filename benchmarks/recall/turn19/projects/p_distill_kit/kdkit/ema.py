import copy

import torch


class ModelEMA:
    """Exponential moving average of a model's weights (kept in fp32)."""

    def __init__(self, model, decay=0.999, device=None):
        self.module = copy.deepcopy(model)  # expect: DEV016
        self.module.eval()
        self.decay = decay
        if device is not None:
            self.module.to(device)
        for p in self.module.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        msd = model.state_dict()
        for k, ema_v in self.module.state_dict().items():
            model_v = msd[k].detach()
            if ema_v.dtype.is_floating_point:
                ema_v.mul_(self.decay).add_(model_v, alpha=1.0 - self.decay)
            else:
                ema_v.copy_(model_v)
