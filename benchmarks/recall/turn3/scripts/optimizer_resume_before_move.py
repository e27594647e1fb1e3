"""Resumable training script: model, optimizer and scheduler restored from the last checkpoint."""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 1))

    def forward(self, x):
        return self.net(x)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ckpt", default="ckpt/last.pt")
    parser.add_argument("--steps", type=int, default=1000)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    model = MLP()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=args.steps)
    start = 0
    if os.path.exists(args.ckpt):
        state = torch.load(args.ckpt, map_location="cpu")
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])  # expect: DEV017
        scheduler.load_state_dict(state["scheduler"])
        start = state["step"] + 1
    model.to(device)

    for step in range(start, args.steps):
        x = torch.randn(256, 32, device=device)
        loss = F.mse_loss(model(x), x.sum(1, keepdim=True).sin())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        scheduler.step()
        if step % 100 == 0:
            os.makedirs(os.path.dirname(args.ckpt), exist_ok=True)
            torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                        "scheduler": scheduler.state_dict(), "step": step}, args.ckpt)


if __name__ == "__main__":
    main()
