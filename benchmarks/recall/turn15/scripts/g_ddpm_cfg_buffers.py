"""Class-conditional DDPM with classifier-free guidance: training + guided sampling.

The noise schedule lives in buffers on the diffusion module, so `.to(device)` carries it.
"""
import argparse
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def cosine_alphas_cumprod(T, s=0.008):
    x = torch.linspace(0, T, T + 1, dtype=torch.float64)
    ac = torch.cos(((x / T) + s) / (1 + s) * math.pi * 0.5) ** 2
    ac = ac / ac[0]
    betas = (1 - ac[1:] / ac[:-1]).clamp(max=0.999)
    return torch.cumprod(1 - betas, 0).float(), betas.float()


def extract(a, t, x_shape):
    return a.gather(-1, t).reshape(t.shape[0], *((1,) * (len(x_shape) - 1)))


class Denoiser(nn.Module):
    def __init__(self, n_classes, ch=1, width=32):
        super().__init__()
        self.n_classes = n_classes
        self.class_emb = nn.Embedding(n_classes + 1, width)  # last row = "no label"
        self.time_mlp = nn.Sequential(nn.Linear(width, width), nn.SiLU())
        self.width = width
        self.body = nn.Sequential(nn.Conv2d(ch, width, 3, padding=1), nn.SiLU(),
                                  nn.Conv2d(width, width, 3, padding=1), nn.SiLU())
        self.out = nn.Conv2d(width, ch, 3, padding=1)

    def time_embedding(self, t):
        half = self.width // 2
        freqs = torch.exp(-math.log(10_000) * torch.arange(half, device=t.device) / half)
        ang = t.float()[:, None] * freqs
        return torch.cat([ang.sin(), ang.cos()], dim=1)

    def forward(self, x, t, y):
        cond = self.time_mlp(self.time_embedding(t)) + self.class_emb(y)
        return self.out(self.body(x) + cond[:, :, None, None])


class Diffusion(nn.Module):
    def __init__(self, model, T=200, p_uncond=0.1):
        super().__init__()
        self.model, self.T, self.p_uncond = model, T, p_uncond
        ac, betas = cosine_alphas_cumprod(T)
        self.register_buffer("betas", betas)
        self.register_buffer("sqrt_ac", ac.sqrt())
        self.register_buffer("sqrt_1m_ac", (1 - ac).sqrt())

    def forward(self, x0, y):
        b = x0.shape[0]
        t = torch.randint(0, self.T, (b,), device=x0.device)
        drop = torch.rand(b, device=x0.device) < self.p_uncond
        y = torch.where(drop, torch.full_like(y, self.model.n_classes), y)
        noise = torch.randn_like(x0)
        x_t = extract(self.sqrt_ac, t, x0.shape) * x0 + extract(self.sqrt_1m_ac, t, x0.shape) * noise
        return F.mse_loss(self.model(x_t, t, y), noise)

    @torch.no_grad()
    def sample(self, y, shape, guidance=3.0):
        x = torch.randn(shape, device=y.device)
        null = torch.full_like(y, self.model.n_classes)
        for i in reversed(range(self.T)):
            t = torch.full((shape[0],), i, device=y.device, dtype=torch.long)
            eps_c, eps_u = self.model(torch.cat([x, x]), torch.cat([t, t]), torch.cat([y, null])).chunk(2)
            eps = eps_u + guidance * (eps_c - eps_u)
            beta = self.betas[i]
            x = (x - beta / self.sqrt_1m_ac[i] * eps) / (1 - beta).sqrt()
            if i > 0:
                x = x + beta.sqrt() * torch.randn_like(x)
        return x


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--T", type=int, default=50)
    ap.add_argument("--guidance", type=float, default=3.0)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    x = torch.randn(64, 1, 12, 12)
    y = torch.randint(0, 4, (64,))
    loader = DataLoader(TensorDataset(x, y), batch_size=16, shuffle=True)

    diffusion = Diffusion(Denoiser(n_classes=4), T=args.T).to(device)
    ema = copy.deepcopy(diffusion).requires_grad_(False)
    opt = torch.optim.AdamW(diffusion.parameters(), lr=3e-4)

    for epoch in range(args.epochs):
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = diffusion(xb, yb)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            with torch.no_grad():
                for pe, p in zip(ema.parameters(), diffusion.parameters()):
                    pe.lerp_(p, 0.01)
        print(f"epoch {epoch} loss {loss.item():.4f}")

    labels = torch.arange(4, device=device)
    imgs = ema.sample(labels, (4, 1, 12, 12), guidance=args.guidance)
    arr = imgs.clamp(-1, 1).cpu().numpy()
    print("per-class sample means:", [round(float(a.mean()), 3) for a in arr])


if __name__ == "__main__":
    main()
