"""Logistic regression with a hand-written SGD update and no torch.optim: verify must stop it
by its backward() calls, long before its 20,000 steps."""
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)
X = torch.randn(2048, 5, device=device)
true_w = torch.tensor([1.5, -2.0, 0.5, 0.0, 1.0], device=device)
y = (X @ true_w > 0).float()
w = torch.zeros(5, device=device, requires_grad=True)
b = torch.zeros(1, device=device, requires_grad=True)
for step in range(20_000):
    i = step % 64 * 32
    logits = X[i:i + 32] @ w + b
    loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, y[i:i + 32])
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        b -= 0.1 * b.grad
        w.grad.zero_()
        b.grad.zero_()
