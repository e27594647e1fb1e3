"""Rectified-flow / conditional flow matching on 2-D two-moons with resumable checkpoints.

Written from atong01/conditional-flow-matching "Problem training 8 gaussians to moons",
kohya-ss "At resuming: RuntimeError: Expected all tensors to be on the same device ...
cuda:0 and cpu!" and pytorch "optimizer load_state_dict() problem?": the optimizer state is
restored while the parameters are still on the CPU (Adam's moments stay there after the
move), and the data batch is "moved" with a bare x1.to(device) whose result is dropped.
"""
import argparse
import math
import os

import torch
import torch.nn as nn


class VelocityMLP(nn.Module):
    def __init__(self, dim=2, hidden=128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim + 1, hidden), nn.SiLU(), nn.Linear(hidden, hidden),
                                 nn.SiLU(), nn.Linear(hidden, dim))

    def forward(self, x, t):
        return self.net(torch.cat([x, t], dim=-1))


def two_moons(n, noise=0.05):
    k = n // 2
    a = torch.rand(k) * math.pi
    upper = torch.stack([a.cos(), a.sin()], 1)
    b = torch.rand(n - k) * math.pi
    lower = torch.stack([1 - b.cos(), 0.5 - b.sin()], 1)
    return torch.cat([upper, lower]) + noise * torch.randn(n, 2)


@torch.no_grad()
def euler_sample(model, n, steps, device):
    x = torch.randn(n, 2, device=device)
    for i in range(steps):
        t = torch.full((n, 1), i / steps, device=device)
        x = x + model(x, t) / steps
    return x


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=500)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--ckpt", default="fm_moons.pt")
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    model = VelocityMLP()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    start = 0
    if os.path.exists(args.ckpt):
        ckpt = torch.load(args.ckpt, map_location="cpu")
        model.load_state_dict(ckpt["model"])
        opt.load_state_dict(ckpt["opt"])  # expect: DEV017
        start = ckpt["step"]
        print(f"resumed at step {start}")
    model.to(device)

    for step in range(start, args.steps):
        x1 = two_moons(args.batch)
        x1.to(device)  # expect: DEV005
        x0 = torch.randn_like(x1)
        t = torch.rand(x1.size(0), 1, device=x1.device)
        xt = (1 - t) * x0 + t * x1
        v = model(xt, t)  # also: DEV002
        loss = ((v - (x1 - x0)) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if (step + 1) % 100 == 0:
            print(f"step {step + 1} loss {loss.item():.4f}")
            torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step + 1},
                       args.ckpt)

    samples = euler_sample(model, 1000, 50, device).cpu()
    print("sample mean", samples.mean(0).tolist(), "std", samples.std(0).tolist())


if __name__ == "__main__":
    main()
