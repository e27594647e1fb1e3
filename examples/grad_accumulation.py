"""Gradient accumulation: four micro-batches per optimizer step, each loss divided by four."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
ACCUMULATE = 4

X = torch.randn(1024, 8)
y = torch.sin(X.sum(dim=1, keepdim=True))
loader = DataLoader(TensorDataset(X, y), batch_size=16, shuffle=True)

model = nn.Sequential(nn.Linear(8, 32), nn.Tanh(), nn.Linear(32, 1)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

micro_losses = []
for epoch in range(2):
    for i, (xb, yb) in enumerate(loader):
        xb, yb = xb.to(device), yb.to(device)
        loss = nn.functional.mse_loss(model(xb), yb) / ACCUMULATE
        loss.backward()
        micro_losses.append(loss.item())
        if (i + 1) % ACCUMULATE == 0:
            optimizer.step()
            optimizer.zero_grad()
            # the mean of the losses backpropagated since the last step
            print(f"step loss {sum(micro_losses) / len(micro_losses):.6f}")
            micro_losses = []
