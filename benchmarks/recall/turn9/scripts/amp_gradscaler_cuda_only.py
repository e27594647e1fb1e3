"""UNet-ish image regression trained with automatic mixed precision and a gradient scaler.

Thread: https://github.com/aladdinpersson/Machine-Learning-Collection/issues/147 (GradScaler is
enabled, but CUDA is not available: the training script assumes a GPU on a laptop).
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

DEVICE = "cuda"  # expect: DEV001


def main():
    model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 1, 1)).to(DEVICE)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    scaler = torch.amp.GradScaler("cuda")
    loss_fn = nn.BCEWithLogitsLoss()
    ds = TensorDataset(torch.rand(32, 3, 32, 32), (torch.rand(32, 1, 32, 32) > 0.5).float())
    for x, y in DataLoader(ds, batch_size=8):
        x, y = x.to(DEVICE), y.to(DEVICE)
        with torch.autocast(device_type="cuda", dtype=torch.float16):
            loss = loss_fn(model(x), y)
        opt.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
    print(loss.item())


if __name__ == "__main__":
    main()
