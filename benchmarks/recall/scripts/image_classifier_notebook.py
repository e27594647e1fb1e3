# %% [markdown]
# # Flowers-style classifier, exported from a notebook
# Cells run top to bottom; everything lives at module level.

# %%
import matplotlib

matplotlib.use("Agg")
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda")  # expect: DEV001
torch.manual_seed(42)

# %%
images = torch.rand(40, 3, 24, 24)
targets = torch.randint(0, 4, (40,))
train_ds = TensorDataset(images[:32], targets[:32])
valid_ds = TensorDataset(images[32:], targets[32:])
train_dl = DataLoader(train_ds, batch_size=8, shuffle=True)
valid_dl = DataLoader(valid_ds, batch_size=8)

# %%
model = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
    nn.Flatten(), nn.Linear(32, 4),
)
model = model.to(device)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

# %%
for epoch in range(2):
    model.train()
    for xb, yb in train_dl:
        xb, yb = xb.to(device), yb.to(device)
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
    model.eval()
    with torch.no_grad():
        val_loss = sum(F.cross_entropy(model(xb.to(device)), yb.to(device)) for xb, yb in valid_dl)
    print(epoch, val_loss.item() / len(valid_dl))

# %% look at a few predictions
sample_imgs, sample_targets = next(iter(valid_dl))
with torch.no_grad():
    preds = model(sample_imgs.to(device)).argmax(dim=1)
print("predicted:", preds.numpy())  # expect: DEV011
print("actual:   ", sample_targets.numpy())
