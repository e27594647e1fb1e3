"""Mixed-precision training of a small regressor with checkpoint resume.

    python s_amp_resume_scaler_ok.py --epochs 2
    python s_amp_resume_scaler_ok.py --epochs 4 --resume last.pt
"""
import argparse
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def get_args():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--resume", default=None)
    ap.add_argument("--ckpt", default="last.pt")
    ap.add_argument("--no-amp", action="store_true")
    return ap.parse_args()


class Regressor(nn.Module):
    def __init__(self, d_in=20):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, 128), nn.SiLU(), nn.Linear(128, 128), nn.SiLU())
        self.out = nn.Linear(128, 1)

    def forward(self, x):
        return self.out(self.body(x)).squeeze(-1)


def main():
    args = get_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    use_amp = device.type == "cuda" and not args.no_amp

    x = torch.randn(2048, 20)
    y = x[:, :5].sum(dim=1) + 0.1 * torch.randn(2048)
    loader = DataLoader(TensorDataset(x, y), batch_size=128, shuffle=True)

    model = Regressor().to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-2)
    scaler = torch.amp.GradScaler(device.type, enabled=use_amp)
    start_epoch = 0
    if args.resume and os.path.exists(args.resume):
        state = torch.load(args.resume, map_location=device)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        scaler.load_state_dict(state["scaler"])
        start_epoch = state["epoch"] + 1
        print(f"resumed from epoch {state['epoch']}")

    for epoch in range(start_epoch, args.epochs):
        model.train()
        total = 0.0
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            with torch.autocast(device_type=device.type, dtype=torch.float16, enabled=use_amp):
                loss = nn.functional.mse_loss(model(xb), yb)
            optimizer.zero_grad(set_to_none=True)
            scaler.scale(loss).backward()
            scaler.unscale_(optimizer)
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            scaler.step(optimizer)
            scaler.update()
            total += loss.item() * xb.size(0)
        print(f"epoch {epoch}: mse {total / len(loader.dataset):.4f}")
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                    "scaler": scaler.state_dict(), "epoch": epoch}, args.ckpt)


if __name__ == "__main__":
    main()
