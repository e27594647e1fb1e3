"""Mixed precision regression with gradient accumulation (GradScaler + autocast); model moved once."""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Regressor(nn.Module):
    def __init__(self, d_in=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 64), nn.GELU(), nn.Linear(64, 64), nn.GELU(), nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--accum-steps", type=int, default=4)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--amp", action="store_true", default=True)
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    return p.parse_args()


def main():
    args = get_args()
    device = torch.device(args.device)
    use_amp = args.amp and device.type == "cuda"

    x = torch.randn(256, 16)
    y = (x[:, :4].sum(1) + 0.1 * torch.randn(256)).double()  # targets stored as float64
    loader = DataLoader(TensorDataset(x, y), batch_size=16, shuffle=True)

    model = Regressor().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    scaler = torch.amp.GradScaler(device.type, enabled=use_amp)
    loss_fn = nn.MSELoss()

    for epoch in range(args.epochs):
        opt.zero_grad(set_to_none=True)
        for i, (xb, yb) in enumerate(loader):
            xb = xb.to(device, non_blocking=True)
            yb = yb.to(device).float()
            with torch.autocast(device_type=device.type, dtype=torch.float16, enabled=use_amp):
                pred = model(xb)
                loss = loss_fn(pred.float(), yb) / args.accum_steps
            scaler.scale(loss).backward()
            if (i + 1) % args.accum_steps == 0:
                scaler.unscale_(opt)
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                scaler.step(opt)
                scaler.update()
                opt.zero_grad(set_to_none=True)
        print(f"epoch {epoch}: last micro-batch loss {loss.item() * args.accum_steps:.4f}")


if __name__ == "__main__":
    main()
