"""The device comes from an environment variable that defaults to cpu."""
import os

import torch
import torch.nn as nn

device = torch.device(os.environ.get("TRAIN_DEVICE", "cpu"))
torch.manual_seed(0)
model = nn.Linear(5, 1).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(20):
    x = torch.randn(16, 5, device=device)
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
