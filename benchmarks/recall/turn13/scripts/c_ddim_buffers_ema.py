"""DDPM training + DDIM sampling on 1-D signals, with registered schedule buffers and an EMA.

Correct look-alike, written from diffusers "[DDIM, DDPM] fix add_noise", "fix device in DDPM
/ DDIM timesteps" (refiners) and lucidrains ema-pytorch "about the training speed" (EMA kept
on the CPU): the schedule is registered with register_buffer so it moves with the module, the
EMA copy is taken after the move, timesteps are drawn on the data's device, and samples are
brought back with .cpu() before NumPy.
"""
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Denoiser1D(nn.Module):
    def __init__(self, length=32, hidden=128, T=250):
        super().__init__()
        self.t_emb = nn.Embedding(T, hidden)
        self.inp = nn.Linear(length, hidden)
        self.body = nn.Sequential(nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, length))

    def forward(self, x, t):
        return self.body(self.inp(x) + self.t_emb(t))


class DDPM(nn.Module):
    def __init__(self, net, T=250):
        super().__init__()
        self.net, self.T = net, T
        betas = torch.linspace(1e-4, 0.02, T)
        self.register_buffer("alpha_bar", torch.cumprod(1 - betas, dim=0))

    def loss(self, x0):
        t = torch.randint(0, self.T, (x0.size(0),), device=x0.device)
        eps = torch.randn_like(x0)
        ab = self.alpha_bar[t][:, None]
        return F.mse_loss(self.net(ab.sqrt() * x0 + (1 - ab).sqrt() * eps, t), eps)

    @torch.no_grad()
    def ddim_sample(self, n, length, steps=50, eta=0.0):
        device = self.alpha_bar.device
        x = torch.randn(n, length, device=device)
        ts = torch.linspace(self.T - 1, 0, steps, device=device).long()
        for i, t in enumerate(ts):
            ab = self.alpha_bar[t]
            ab_prev = self.alpha_bar[ts[i + 1]] if i + 1 < len(ts) else torch.tensor(1.0, device=device)
            eps = self.net(x, t.expand(n))
            x0 = (x - (1 - ab).sqrt() * eps) / ab.sqrt()
            sigma = eta * ((1 - ab_prev) / (1 - ab) * (1 - ab / ab_prev)).clamp(min=0).sqrt()
            x = ab_prev.sqrt() * x0 + (1 - ab_prev - sigma ** 2).sqrt() * eps + sigma * torch.randn_like(x)
        return x


def sine_batch(n, length=32):
    phase = torch.rand(n, 1) * 6.28
    freq = 1 + torch.randint(0, 3, (n, 1)).float()
    grid = torch.linspace(0, 6.28, length)[None]
    return torch.sin(freq * grid + phase)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    model = DDPM(Denoiser1D()).to(device)
    ema = copy.deepcopy(model).eval().requires_grad_(False)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

    for step in range(300):
        x0 = sine_batch(64).to(device)
        loss = model.loss(x0)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        with torch.no_grad():
            for pe, p in zip(ema.parameters(), model.parameters()):
                pe.lerp_(p, 0.01)
        if step % 100 == 0:
            print(f"step {step} loss {loss.item():.4f}")

    samples = ema.ddim_sample(8, 32).cpu().numpy()
    np.save("ddim_samples.npy", samples)
    print("sample range", float(samples.min()), float(samples.max()))


if __name__ == "__main__":
    main()
