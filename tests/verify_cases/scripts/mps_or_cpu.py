"""Written on a Mac: mps when there is one, else cpu. The simulated accelerator answers for
mps too, so the placement gets checked."""
import torch
import torch.nn as nn

device = torch.device("mps" if torch.backends.mps.is_available() else "cpu")
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 32), nn.Tanh(), nn.Linear(32, 1)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
X = torch.randn(256, 8)
y = X.sum(dim=1, keepdim=True)
for step in range(100):
    i = step % 8 * 32
    xb, yb = X[i:i + 32].to(device), y[i:i + 32].to(device)
    loss = nn.functional.mse_loss(model(xb), yb)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 20 == 0:
        print(f"step {step} loss {loss.item():.4f} on {loss.device}")
