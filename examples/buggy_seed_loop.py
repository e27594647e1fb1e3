"""The seed's loop with the four classic mistakes of a CPU-to-GPU port.
`devlint check examples/buggy_seed_loop.py` finds all four."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda")  # DEV001: no CPU fallback

X = torch.randn(256, 4)
y = X @ torch.tensor([[1.0], [-2.0], [0.5], [3.0]])
loader = DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True)
val_loader = DataLoader(TensorDataset(X[:64], y[:64]), batch_size=32)

model = nn.Linear(4, 1).to(device)
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)

for epoch in range(5):
    for inputs, targets in loader:
        inputs = inputs.to(device)
        optimizer.zero_grad()
        loss = criterion(model(inputs), targets)  # DEV004: labels left on the CPU
        loss.backward()
        optimizer.step()

    # DEV003: moves only the first batch; the loop rebinds `xb` to CPU batches.
    xb, yb = next(iter(val_loader))
    xb = xb.to(device)
    with torch.no_grad():
        for xb, yb in val_loader:
            preds = model(xb)
    print(f"epoch {epoch} loss {loss.item():.4f}")

# DEV002: inference loop never moves its batches.
with torch.no_grad():
    for batch, _ in loader:
        print(model(batch).mean().item())
