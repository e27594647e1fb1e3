"""Sample class-conditional images with classifier-free guidance (DDPM ancestral sampler).

    python o_cfg_sampler_ok.py --ckpt cond_unet.pt --classes 0 1 2 3 --guidance 4.0
"""
import argparse
import math
import os

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class CondUNet(nn.Module):
    def __init__(self, num_classes=4, ch=32, tdim=32):
        super().__init__()
        self.tdim = tdim
        self.class_emb = nn.Embedding(num_classes, ch)
        self.null_emb = nn.Parameter(torch.zeros(ch))  # learned "no class" embedding
        self.t_proj = nn.Linear(tdim, ch)
        self.c1 = nn.Conv2d(1, ch, 3, padding=1)
        self.c2 = nn.Conv2d(ch, ch, 3, padding=1)
        self.c3 = nn.Conv2d(ch, 1, 3, padding=1)

    def forward(self, x, t, y, drop_mask=None):
        half = self.tdim // 2
        freqs = torch.exp(-math.log(10000.0) * torch.arange(half, device=x.device) / half)
        ang = t.float()[:, None] * freqs
        c = self.class_emb(y)
        if drop_mask is not None:
            c = torch.where(drop_mask[:, None], self.null_emb.expand_as(c), c)
        c = c + self.t_proj(torch.cat([ang.sin(), ang.cos()], 1))
        h = F.silu(self.c1(x) + c[:, :, None, None])
        return self.c3(F.silu(self.c2(h)))


def make_schedule(T):
    betas = torch.linspace(1e-4, 0.02, T)
    alphas = 1.0 - betas
    return betas, alphas, torch.cumprod(alphas, 0)


@torch.no_grad()
def guided_sample(model, class_ids, guidance, T, size, device):
    betas, alphas, alpha_bar = make_schedule(T)  # cpu, indexed with python ints below
    n = len(class_ids)
    y = torch.tensor(class_ids, dtype=torch.long, device=device)
    y2 = torch.cat([y, y])
    drop = torch.cat([torch.zeros(n, dtype=torch.bool), torch.ones(n, dtype=torch.bool)]).to(device)
    w = torch.tensor(guidance)
    x = torch.randn(n, 1, size, size, device=device)
    for i in reversed(range(T)):
        t = torch.full((2 * n,), i, dtype=torch.long, device=device)
        eps_c, eps_u = model(torch.cat([x, x]), t, y2, drop_mask=drop).chunk(2)
        eps = eps_u + w * (eps_c - eps_u)
        x = (x - betas[i] / (1 - alpha_bar[i]).sqrt() * eps) / alphas[i].sqrt()
        if i > 0:
            x = x + betas[i].sqrt() * torch.randn_like(x)
    return x.clamp(-1, 1)


def to_uint8(x):
    return ((x + 1) * 127.5).round().to(torch.uint8).squeeze(1).cpu().numpy()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", default="cond_unet.pt")
    ap.add_argument("--classes", type=int, nargs="+", default=[0, 1, 2, 3])
    ap.add_argument("--guidance", type=float, default=4.0)
    ap.add_argument("--T", type=int, default=50)
    ap.add_argument("--size", type=int, default=12)
    ap.add_argument("--out", default="cfg_samples.npy")
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = CondUNet()
    if os.path.exists(args.ckpt):
        model.load_state_dict(torch.load(args.ckpt, map_location="cpu"))
    model = model.to(device).eval()

    imgs = to_uint8(guided_sample(model, args.classes, args.guidance, args.T, args.size, device))
    np.save(args.out, imgs)
    print("saved", imgs.shape, "to", args.out)


if __name__ == "__main__":
    main()
