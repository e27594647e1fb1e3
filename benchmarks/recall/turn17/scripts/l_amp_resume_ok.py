# fp16 autocast + GradScaler regression run with checkpoint/resume.
# Usage: python l_amp_resume_ok.py --epochs 3 [--resume runs/amp_reg/ckpt.pt]
import argparse
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=3)
parser.add_argument("--lr", type=float, default=1e-2)
parser.add_argument("--out", default="runs/amp_reg")
parser.add_argument("--resume", default=None)
parser.add_argument("--no-cuda", action="store_true")
args = parser.parse_args()

use_cuda = torch.cuda.is_available() and not args.no_cuda
device = torch.device("cuda" if use_cuda else "cpu")
torch.manual_seed(42)

# y = sin(x0) + x1 * x2 + noise
X = torch.randn(4096, 8)
Y = (torch.sin(X[:, 0]) + X[:, 1] * X[:, 2] + 0.05 * torch.randn(4096)).unsqueeze(1)
train_loader = DataLoader(TensorDataset(X[:3500], Y[:3500]), batch_size=128, shuffle=True,
                          pin_memory=use_cuda)
val_x, val_y = X[3500:].to(device), Y[3500:].to(device)

model = nn.Sequential(nn.Linear(8, 128), nn.SiLU(), nn.Linear(128, 128), nn.SiLU(), nn.Linear(128, 1))
model.to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=args.lr, total_steps=100 * len(train_loader))
scaler = torch.amp.GradScaler("cuda", enabled=use_cuda)
start_epoch = 0

ckpt_path = args.resume or os.path.join(args.out, "ckpt.pt")
if os.path.exists(ckpt_path):
    ckpt = torch.load(ckpt_path, map_location=device)
    model.load_state_dict(ckpt["model"])
    optimizer.load_state_dict(ckpt["optimizer"])
    scheduler.load_state_dict(ckpt["scheduler"])
    if use_cuda and ckpt.get("scaler"):
        scaler.load_state_dict(ckpt["scaler"])
    start_epoch = ckpt["epoch"] + 1
    print(f"resumed at epoch {start_epoch} (best val {ckpt['best']:.4f})")
best = float("inf") if start_epoch == 0 else ckpt["best"]

for epoch in range(start_epoch, start_epoch + args.epochs):
    model.train()
    for xb, yb in train_loader:
        xb = xb.to(device, non_blocking=True)
        yb = yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast(device_type=device.type, dtype=torch.float16, enabled=use_cuda):
            pred = model(xb)
        loss = nn.functional.mse_loss(pred.float(), yb)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        scheduler.step()

    model.eval()
    with torch.no_grad(), torch.autocast(device_type=device.type, dtype=torch.float16, enabled=use_cuda):
        val = nn.functional.mse_loss(model(val_x).float(), val_y).item()
    best = min(best, val)
    print(f"epoch {epoch}: val mse {val:.4f} lr {scheduler.get_last_lr()[0]:.2e}")

    os.makedirs(args.out, exist_ok=True)
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "scheduler": scheduler.state_dict(), "scaler": scaler.state_dict(),
                "epoch": epoch, "best": best}, os.path.join(args.out, "ckpt.pt"))
