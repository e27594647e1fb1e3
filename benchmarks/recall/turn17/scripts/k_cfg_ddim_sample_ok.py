"""Classifier-free guided DDIM sampling for a class-conditional toy model.

    python k_cfg_ddim_sample_ok.py --train-iters 150 --ckpt cfg_toy.pt   # trains if ckpt is missing
"""
import argparse
import math
import os

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

CFG = {"T": 300, "num_classes": 3, "dim": 16, "p_uncond": 0.15}


def make_schedule(T):
    steps = torch.arange(T + 1, dtype=torch.float64) / T
    f = torch.cos((steps + 0.008) / 1.008 * math.pi / 2) ** 2
    return (f[1:] / f[0]).float().clamp(min=1e-5)       # alphas_cumprod, kept on the CPU


class CondMLP(nn.Module):
    def __init__(self, dim, num_classes, T, hidden=128):
        super().__init__()
        self.null = num_classes
        self.y_emb = nn.Embedding(num_classes + 1, hidden)
        self.t_emb = nn.Embedding(T, hidden)
        self.inp = nn.Linear(dim, hidden)
        self.out = nn.Sequential(nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, dim))

    def forward(self, x, t, y):
        return self.out(self.inp(x) + self.t_emb(t) + self.y_emb(y))


def class_data(n, dim, num_classes):
    y = torch.randint(0, num_classes, (n,))
    centers = torch.linspace(-2, 2, num_classes)
    x = centers[y][:, None] + 0.3 * torch.randn(n, dim)
    return x, y


def train(ckpt_path, iters, device):
    ab = make_schedule(CFG["T"]).to(device)
    model = CondMLP(CFG["dim"], CFG["num_classes"], CFG["T"]).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for it in range(iters):
        x0, y = class_data(128, CFG["dim"], CFG["num_classes"])
        x0, y = x0.to(device), y.to(device)
        drop = torch.rand(y.shape, device=device) < CFG["p_uncond"]
        y = y.masked_fill(drop, model.null)
        t = torch.randint(0, CFG["T"], (y.shape[0],), device=device)
        noise = torch.randn_like(x0)
        a = ab[t][:, None]
        loss = F.mse_loss(model(a.sqrt() * x0 + (1 - a).sqrt() * noise, t, y), noise)
        opt.zero_grad()
        loss.backward()
        opt.step()
    torch.save({"model": model.state_dict(), "cfg": CFG}, ckpt_path)
    print(f"trained {iters} iters, last loss {loss.item():.4f}")


@torch.no_grad()
def guided_ddim(model, labels, steps, scale, device):
    ab = make_schedule(CFG["T"])
    n = labels.shape[0]
    ts = np.linspace(CFG["T"] - 1, 0, steps).round().astype(int).tolist()
    x = torch.randn(n, CFG["dim"], device=device)
    null = torch.full((n,), model.null, device=device, dtype=torch.long)
    for k, i in enumerate(ts):
        t = torch.full((n,), i, device=device, dtype=torch.long)
        eps_c, eps_u = model(x, t, labels), model(x, t, null)
        eps = eps_u + scale * (eps_c - eps_u)
        a_t = ab[i]                                     # 0-dim CPU tensor
        a_prev = ab[ts[k + 1]] if k + 1 < len(ts) else torch.tensor(1.0)
        x0 = (x - (1 - a_t).sqrt() * eps) / a_t.sqrt()
        x = a_prev.sqrt() * x0 + (1 - a_prev).sqrt() * eps
    return x


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", default="cfg_toy.pt")
    ap.add_argument("--train-iters", type=int, default=150)
    ap.add_argument("--steps", type=int, default=25)
    ap.add_argument("--scale", type=float, default=2.0)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    if not os.path.exists(args.ckpt):
        train(args.ckpt, args.train_iters, device)

    state = torch.load(args.ckpt, map_location=device)
    model = CondMLP(state["cfg"]["dim"], state["cfg"]["num_classes"], state["cfg"]["T"])
    model.load_state_dict(state["model"])
    model.to(device).eval()

    labels = torch.arange(CFG["num_classes"], device=device).repeat_interleave(4)
    samples = guided_ddim(model, labels, args.steps, args.scale, device)
    per_class = samples.mean(dim=1).cpu().numpy()
    for c in range(CFG["num_classes"]):
        print(f"class {c}: mean {per_class[labels.cpu().numpy() == c].mean():+.2f}")


if __name__ == "__main__":
    main()
