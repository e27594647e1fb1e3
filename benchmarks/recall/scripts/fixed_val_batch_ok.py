"""Autoencoder that tracks reconstructions of one fixed validation batch moved to the device once."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
dataset = TensorDataset(torch.rand(40, 1, 16, 16))
train_loader = DataLoader(dataset, batch_size=8, shuffle=True)
val_loader = DataLoader(dataset, batch_size=8)

model = nn.Sequential(
    nn.Conv2d(1, 8, 3, stride=2, padding=1), nn.ReLU(),
    nn.ConvTranspose2d(8, 1, 4, stride=2, padding=1), nn.Sigmoid(),
).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

(fixed_batch,) = next(iter(val_loader))
fixed_batch = fixed_batch.to(device)
X_full = dataset.tensors[0].to(device)

for epoch in range(2):
    for (imgs,) in train_loader:
        imgs = imgs.to(device, non_blocking=True)
        loss = nn.functional.binary_cross_entropy(model(imgs), imgs)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    with torch.no_grad():
        recon = model(fixed_batch)
        fixed_err = nn.functional.mse_loss(recon, fixed_batch).item()
        full_err = nn.functional.mse_loss(model(X_full), X_full).item()
    print(f"epoch {epoch} train {loss.item():.4f} fixed-batch mse {fixed_err:.4f} full mse {full_err:.4f}")
