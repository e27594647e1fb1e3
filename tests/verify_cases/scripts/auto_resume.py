"""Resumes from ./checkpoint.pt when it exists and saves one every epoch: the second device
run must not resume from the first run's file."""
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
torch.manual_seed(0)
loader = DataLoader(TensorDataset(torch.randn(256, 6), torch.randn(256, 1)), batch_size=16)
model = nn.Linear(6, 1).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
start = 0
if os.path.exists("checkpoint.pt"):
    state = torch.load("checkpoint.pt", map_location=device)
    model.load_state_dict(state["model"])
    optimizer.load_state_dict(state["optimizer"])
    start = state["epoch"] + 1
    print(f"resumed at epoch {start}")
for epoch in range(start, 20):
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        loss = nn.functional.mse_loss(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "epoch": epoch}, "checkpoint.pt")
