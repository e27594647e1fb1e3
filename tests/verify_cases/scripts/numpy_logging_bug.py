"""Logging predictions with .numpy() on a device tensor: fine on the CPU, a TypeError on a
GPU."""
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)
model = nn.Linear(3, 1).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
log = []
for step in range(20):
    x = torch.randn(16, 3, device=device)
    pred = model(x)
    loss = pred.pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    log.append(pred.detach().numpy().mean())
