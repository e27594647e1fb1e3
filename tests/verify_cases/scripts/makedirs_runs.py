"""Creates its run directory without exist_ok and writes logs and a checkpoint into it: the
second device run must start from the user's tree, not from the first run's."""
import json
import os

import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"
os.makedirs("runs/exp1")
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
x, y = torch.randn(64, 4).to(device), torch.randn(64, 1).to(device)
history = []
for step in range(30):
    loss = nn.functional.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    history.append(loss.item())
with open("runs/exp1/history.json", "w") as f:
    json.dump(history, f)
torch.save(model.state_dict(), "runs/exp1/model.pt")
