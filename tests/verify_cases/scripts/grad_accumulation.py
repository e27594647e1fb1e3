"""Gradient accumulation over four micro-batches per optimizer step."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)
loader = DataLoader(TensorDataset(torch.randn(1024, 16), torch.randint(0, 5, (1024,))),
                    batch_size=16, shuffle=True)
model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 5)).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
ACCUMULATE = 4
for epoch in range(5):
    for i, (xb, yb) in enumerate(loader):
        xb, yb = xb.to(device), yb.to(device)
        loss = nn.functional.cross_entropy(model(xb), yb) / ACCUMULATE
        loss.backward()
        if (i + 1) % ACCUMULATE == 0:
            optimizer.step()
            optimizer.zero_grad()
