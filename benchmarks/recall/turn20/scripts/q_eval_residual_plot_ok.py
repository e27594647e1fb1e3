"""Regression eval: predictions are brought back to the host as they are collected, then plotted."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def build_data(n=400):
    x = torch.rand(n, 2) * 2 - 1
    y = (x[:, :1] * 3 - x[:, 1:] ** 2) + 0.05 * torch.randn(n, 1)
    return TensorDataset(x, y)


train_dl = DataLoader(build_data(), batch_size=32, shuffle=True)
test_dl = DataLoader(build_data(100), batch_size=50)
model = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
losses = []
for epoch in range(3):
    for xb, yb in train_dl:
        xb, yb = xb.to(device), yb.to(device)
        loss = nn.functional.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())

model.eval()
preds, targets = [], []
with torch.no_grad():
    for xb, yb in test_dl:
        out = model(xb.to(device))
        preds.append(out.squeeze(1).detach().cpu().numpy())
        targets.append(yb.squeeze(1).numpy())
p, t = np.concatenate(preds), np.concatenate(targets)

fig, ax = plt.subplots(1, 2, figsize=(8, 3))
ax[0].plot(losses)
ax[0].set_title("train loss")
ax[1].scatter(t, p, s=4)
fig.savefig("pred_vs_target.png")
plt.close(fig)
print("rmse", float(np.sqrt(((p - t) ** 2).mean())))
