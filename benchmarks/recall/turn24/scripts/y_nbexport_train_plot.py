#!/usr/bin/env python
# coding: utf-8
# Exported from "sine_regression.ipynb" (File > Download as > Python).

# In[1]:

import numpy as np
import torch
import torch.nn as nn
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print("running on", device)

# In[2]:

rng = np.random.default_rng(0)
xs = rng.uniform(-3, 3, size=(256, 1)).astype(np.float32)
ys = (np.sin(xs) + 0.1 * rng.normal(size=xs.shape)).astype(np.float32)
X_train, y_train = torch.from_numpy(xs[:200]), torch.from_numpy(ys[:200])
X_val, y_val = torch.from_numpy(xs[200:]), torch.from_numpy(ys[200:])
train_loader = DataLoader(TensorDataset(X_train, y_train), batch_size=32, shuffle=True)
val_loader = DataLoader(TensorDataset(X_val, y_val), batch_size=64)

# In[3]:

model = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))
model = model.to(device)
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

# In[4]:

# helpers used by the cells below


def train_epoch(model, loader):
    model.train()
    total = 0.0
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        optimizer.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        optimizer.step()
        total += loss.item() * xb.size(0)
    return total / len(loader.dataset)


def evaluate(model, loader):
    model.eval()
    total = 0.0
    with torch.no_grad():
        for xb, yb in loader:
            xb = xb.to(device)
            pred = model(xb)
            loss = criterion(pred, yb)  # expect: DEV004
            total += loss.item() * xb.size(0)
    return total / len(loader.dataset)


# In[5]:

history = {"train": [], "val": []}
for epoch in range(15):
    history["train"].append(train_epoch(model, train_loader))
    history["val"].append(evaluate(model, val_loader))
print("final val mse %.4f" % history["val"][-1])

# In[6]:

with torch.no_grad():
    val_pred = model(X_val.to(device))

fig, axes = plt.subplots(1, 2, figsize=(9, 3))
axes[0].plot(history["train"], label="train")
axes[0].plot(history["val"], label="val")
axes[0].legend()
axes[1].scatter(X_val.numpy(), y_val.numpy(), s=6, label="data")
axes[1].scatter(X_val.numpy(), val_pred.numpy(), s=6, label="model")  # expect: DEV011
axes[1].legend()
fig.savefig("/tmp/y_sine_fit.png")
