import copy

import torch


class EMA:
    """Exponential moving average of a model's weights.

    The shadow copy is taken from the model as it is when EMA is built and placed on the
    same device as the model's parameters.
    """

    def __init__(self, model, decay=0.999, warmup=100):
        self.decay, self.warmup, self.updates = decay, warmup, 0
        device = next(model.parameters()).device
        self.shadow = copy.deepcopy(model).to(device).eval()
        for p in self.shadow.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        self.updates += 1
        d = min(self.decay, (1 + self.updates) / (self.warmup + self.updates))
        for s, p in zip(self.shadow.parameters(), model.parameters()):
            s.lerp_(p.detach(), 1 - d)
        for sb, b in zip(self.shadow.buffers(), model.buffers()):
            sb.copy_(b)

    def state_dict(self):
        return {"shadow": self.shadow.state_dict(), "updates": self.updates}

    def load_state_dict(self, state):
        self.shadow.load_state_dict(state["shadow"])
        self.updates = state["updates"]
