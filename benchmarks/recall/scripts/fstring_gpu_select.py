"""Pick a GPU by index from the command line and train a small regressor on it."""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--gpu", type=int, default=0, help="index of the GPU to train on")
parser.add_argument("--epochs", type=int, default=2)
args = parser.parse_args()

device = f"cuda:{args.gpu}"  # expect: DEV001
print(f"training on {device}")

X = torch.linspace(-2, 2, 64).unsqueeze(1)
y = torch.sin(3 * X) + 0.1 * torch.randn_like(X)
loader = DataLoader(TensorDataset(X, y), batch_size=16, shuffle=True)
model = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

for epoch in range(args.epochs):
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        loss = nn.functional.mse_loss(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} mse {loss.item():.4f}")
