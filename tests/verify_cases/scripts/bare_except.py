"""A loop that survives anything: a bare except around each step, which also swallows the stop
verify raises at --max-steps. verify must notice, name the handler and end the run there."""
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)
X, y = torch.randn(4096, 8), torch.randn(4096, 1)
model = nn.Linear(8, 1).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
failures = 0
for step in range(100_000):
    try:
        i = step % 128 * 32
        xb, yb = X[i:i + 32].to(device), y[i:i + 32].to(device)
        loss = nn.functional.mse_loss(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    except:  # noqa: E722 - "a bad batch must not kill a week of training"
        failures += 1
print("failures", failures)
