"""A classifier whose device comes from a flag that defaults to cpu: verify's simulated-CUDA
run is then just a second CPU run, and must say so instead of "placement checked"."""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--device", default="cpu")
parser.add_argument("--epochs", type=int, default=3)
args = parser.parse_args()
device = torch.device(args.device)

torch.manual_seed(0)
X, y = torch.randn(512, 20), torch.randint(0, 4, (512,))
loader = DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True)
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 4)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(args.epochs):
    for xb, yb in loader:
        xb = xb.to(device)
        loss = nn.functional.cross_entropy(model(xb), yb)  # yb never moved: a GPU bug
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
