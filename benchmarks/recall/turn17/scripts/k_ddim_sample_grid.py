"""Train a tiny eps-model on 2-channel 8x8 noise patterns, then sample with DDIM.

    python k_ddim_sample_grid.py train --out ddim_small.pt
    python k_ddim_sample_grid.py sample --ckpt ddim_small.pt --steps 20
"""
import argparse
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

T = 500


def cosine_alphas_cumprod(T, s=0.008):
    # plain python list, we only ever index it with ints
    f = [math.cos(((t / T) + s) / (1 + s) * math.pi / 2) ** 2 for t in range(T + 1)]
    return [f[t] / f[0] for t in range(1, T + 1)]


ALPHAS_CUMPROD = cosine_alphas_cumprod(T)


class SinusoidalPosEmb(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, t):
        half = self.dim // 2
        scale = math.log(10000) / (half - 1)
        freqs = torch.exp(torch.arange(half, device=t.device) * -scale)
        emb = t.float()[:, None] * freqs[None, :]
        return torch.cat((emb.sin(), emb.cos()), dim=-1)


class EpsNet(nn.Module):
    def __init__(self, ch=2, hidden=64, tdim=32):
        super().__init__()
        self.time_mlp = nn.Sequential(SinusoidalPosEmb(tdim), nn.Linear(tdim, hidden), nn.GELU())
        self.conv_in = nn.Conv2d(ch, hidden, 3, padding=1)
        self.conv_mid = nn.Conv2d(hidden, hidden, 3, padding=1)
        self.conv_out = nn.Conv2d(hidden, ch, 3, padding=1)

    def forward(self, x, t):
        h = F.gelu(self.conv_in(x))
        h = h + self.time_mlp(t)[:, :, None, None]
        h = F.gelu(self.conv_mid(h))
        return self.conv_out(h)


def toy_batch(n):
    base = torch.linspace(-1, 1, 8)
    ramp = base[None, :].expand(8, 8)
    imgs = torch.stack([ramp, ramp.t()])[None].repeat(n, 1, 1, 1)
    return imgs * torch.randn(n, 1, 1, 1).sign()


def train(args, device):
    model = EpsNet().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    ab = torch.tensor(ALPHAS_CUMPROD, device=device)
    for step in range(args.iters):
        x0 = toy_batch(64).to(device)
        t = torch.randint(0, T, (x0.size(0),), device=device)
        noise = torch.randn_like(x0)
        a = ab[t].view(-1, 1, 1, 1)
        xt = a.sqrt() * x0 + (1 - a).sqrt() * noise
        loss = F.mse_loss(model(xt, t), noise)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 50 == 0:
            print(f"step {step} loss {loss.item():.4f}")
    torch.save({"ema": model.state_dict(), "T": T}, args.out)


@torch.no_grad()
def ddim_sample(model, n, steps, device, eta=0.0):
    seq = list(range(0, T, T // steps))
    x = torch.randn(n, 2, 8, 8, device=device)
    for i, j in zip(reversed(seq), reversed([-1] + seq[:-1])):
        t = torch.full((n,), i, dtype=torch.long)  # expect: DEV006
        a_t = ALPHAS_CUMPROD[i]
        a_prev = ALPHAS_CUMPROD[j] if j >= 0 else 1.0
        eps = model(x, t)
        x0_pred = (x - math.sqrt(1 - a_t) * eps) / math.sqrt(a_t)
        sigma = eta * math.sqrt((1 - a_prev) / (1 - a_t) * (1 - a_t / a_prev))
        dir_xt = math.sqrt(max(1 - a_prev - sigma ** 2, 0.0)) * eps
        x = math.sqrt(a_prev) * x0_pred + dir_xt + sigma * torch.randn_like(x)
    return x


def sample(args, device):
    ckpt = torch.load(args.ckpt)  # expect: DEV008
    model = EpsNet()
    model.load_state_dict(ckpt["ema"])
    model.to(device).eval()
    samples = ddim_sample(model, args.n, args.steps, device)
    grid = samples.clamp(-1, 1).numpy()  # expect: DEV011
    np.save(args.save, grid)
    print("saved", grid.shape, "mean", float(grid.mean()))


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    tr = sub.add_parser("train")
    tr.add_argument("--iters", type=int, default=100)
    tr.add_argument("--out", default="ddim_small.pt")
    sp = sub.add_parser("sample")
    sp.add_argument("--ckpt", default="ddim_small.pt")
    sp.add_argument("--n", type=int, default=16)
    sp.add_argument("--steps", type=int, default=20)
    sp.add_argument("--save", default="ddim_samples.npy")
    args = p.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if args.cmd == "train":
        train(args, device)
    else:
        sample(args, device)


if __name__ == "__main__":
    main()
