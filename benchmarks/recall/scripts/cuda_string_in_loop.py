"""Regression on tabular features; the device is chosen once at the top of the script."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
features = torch.randn(48, 9)
targets = features @ torch.randn(9, 1) + 0.3
loader = DataLoader(TensorDataset(features, targets), batch_size=12, shuffle=True)

model = nn.Sequential(nn.Linear(9, 32), nn.ReLU(), nn.Linear(32, 1))
model = model.to(device)
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
loss_fn = nn.HuberLoss(delta=1.0)

for epoch in range(3):
    epoch_loss = 0.0
    for x, y in loader:
        x = x.to(device)
        y = y.to("cuda")  # expect: DEV001
        loss = loss_fn(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        epoch_loss += loss.item() * len(x)
    print(f"epoch {epoch} huber {epoch_loss / len(loader.dataset):.4f}")
