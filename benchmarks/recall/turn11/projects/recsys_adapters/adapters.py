"""Personalisation stage: freeze the trained towers and train a bottleneck adapter on the user
tower only.

Thread: https://github.com/huggingface/pytorch-image-models/pull/2752 (Fix device / dtype change
for all classifier resets: a layer created after the model was placed must follow it).
"""
import torch.nn as nn


class Adapter(nn.Module):
    def __init__(self, d, bottleneck=8):
        super().__init__()
        self.down = nn.Linear(d, bottleneck)
        self.up = nn.Linear(bottleneck, d)
        nn.init.zeros_(self.up.weight)
        nn.init.zeros_(self.up.bias)

    def forward(self, x):
        return x + self.up(nn.functional.relu(self.down(x)))


def attach_user_adapter(model, d=32):
    for p in model.parameters():
        p.requires_grad_(False)
    model.user_tower.adapter = Adapter(d)  # expect: DEV015
    return [p for p in model.parameters() if p.requires_grad]
