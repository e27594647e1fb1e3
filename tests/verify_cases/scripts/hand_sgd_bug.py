"""A hand-written update whose bias was created without the device."""
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)
X = torch.randn(2048, 5).to(device)
y = X.sum(dim=1)
w = torch.zeros(5, device=device, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
for step in range(20_000):
    i = step % 64 * 32
    loss = ((X[i:i + 32] @ w + b - y[i:i + 32]) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        for p in (w, b):
            p -= 0.01 * p.grad
            p.grad = None
