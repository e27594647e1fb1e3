"""mps-or-cpu again, with the targets left on the CPU: fails on a Mac, so on the simulated
accelerator too."""
import torch
import torch.nn as nn

device = "mps" if torch.backends.mps.is_available() else "cpu"
torch.manual_seed(0)
model = nn.Linear(8, 1).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
X = torch.randn(256, 8)
y = X.sum(dim=1, keepdim=True)
for step in range(100):
    i = step % 8 * 32
    xb, yb = X[i:i + 32].to(device), y[i:i + 32]
    loss = nn.functional.mse_loss(model(xb), yb)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
