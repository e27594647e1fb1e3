"""Classifier-free guidance sampling for a class-conditional toy DDPM.

Usage: python g_cfg_class_sample.py --classes 3 7 --guidance 4.0
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

NUM_CLASSES = 10
NULL_CLASS = NUM_CLASSES  # extra embedding row for the unconditional branch


class CondDenoiser(nn.Module):
    def __init__(self, dim=64, img=8 * 8):
        super().__init__()
        self.label_emb = nn.Embedding(NUM_CLASSES + 1, dim)
        self.time_emb = nn.Embedding(1000, dim)
        self.net = nn.Sequential(nn.Linear(img + dim, 256), nn.SiLU(), nn.Linear(256, img))

    def forward(self, x, t, y):
        cond = self.label_emb(y) + self.time_emb(t)
        return self.net(torch.cat([x, cond], dim=-1))


class CFGSampler:
    def __init__(self, model, timesteps=1000, guidance_scale=3.0):
        self.model = model
        self.T = timesteps
        self.guidance_scale = guidance_scale
        betas = torch.linspace(1e-4, 0.02, timesteps)
        self.alphas = 1.0 - betas
        self.alphas_cumprod = torch.cumprod(self.alphas, 0)

    def guided_eps(self, x, t, y):
        b = x.shape[0]
        null = torch.full((b,), NULL_CLASS, dtype=torch.long)  # expect: DEV006
        x_in = torch.cat([x, x])
        t_in = torch.cat([t, t])
        y_in = torch.cat([y, null])
        eps_cond, eps_uncond = self.model(x_in, t_in, y_in).chunk(2)
        return eps_uncond + self.guidance_scale * (eps_cond - eps_uncond)

    @torch.no_grad()
    def sample(self, y, steps=50):
        device = y.device
        x = torch.randn(y.shape[0], 64, device=device)
        for i in reversed(range(0, self.T, self.T // steps)):
            t = torch.full_like(y, i)
            eps = self.guided_eps(x, t, y)
            a, ac = self.alphas[i], self.alphas_cumprod[i]
            x = (x - (1 - a) / (1 - ac).sqrt() * eps) / a.sqrt()
            if i > 0:
                x = x + (1 - a).sqrt() * torch.randn_like(x)
        return x


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--classes", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--guidance", type=float, default=3.0)
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args()

    device = torch.device("cuda")  # expect: DEV001
    model = CondDenoiser().to(device).eval()
    sampler = CFGSampler(model, guidance_scale=args.guidance)
    y = torch.tensor(args.classes, device=device)
    out = sampler.sample(y, steps=args.steps)
    print("samples", tuple(out.shape), "range", F.hardtanh(out).min().item(), F.hardtanh(out).max().item())


if __name__ == "__main__":
    main()
