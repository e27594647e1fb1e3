"""Model surgery before the move: a new classifier and LoRA adapters added, then one .to(device),
then an SWA copy of the moved model."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.swa_utils import AveragedModel


class LoRALinear(nn.Module):
    def __init__(self, base, r=4):
        super().__init__()
        self.base = base
        self.lora_a = nn.Parameter(torch.empty(r, base.in_features))
        self.lora_b = nn.Parameter(torch.zeros(base.out_features, r))
        nn.init.kaiming_uniform_(self.lora_a, a=math.sqrt(5))

    def forward(self, x):
        return self.base(x) + x @ self.lora_a.T @ self.lora_b.T


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
backbone = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
model = nn.Sequential(backbone, nn.Linear(64, 1000))
model[1] = nn.Linear(64, 5)
for name, child in list(backbone.named_children()):
    if isinstance(child, nn.Linear):
        setattr(backbone, name, LoRALinear(child))
model = model.to(device)
swa_model = AveragedModel(model)

opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(6):
    x = torch.randn(16, 32, device=device)
    y = torch.randint(0, 5, (16,), device=device)
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    swa_model.update_parameters(model)
print(swa_model(torch.randn(2, 32, device=device)).shape)
