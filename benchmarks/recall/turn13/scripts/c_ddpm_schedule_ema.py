"""DDPM training on tiny synthetic images with an EMA copy of the denoiser.

Written from diffusers "[DDIM, DDPM] fix add_noise" (alphas not on the sample's device),
"[Examples] Make sure EMA works with any device" and DALLE2-pytorch "EMA Bug" ("Expected all
tensors to be on the same device, but found at least two devices, cuda:0 and CPU!" in
update_moving_average): the noise schedule is a plain tensor attribute of the module, and
the EMA copy is taken before the model is moved and never follows it.
"""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class TimeEmbedding(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.SiLU(), nn.Linear(dim, dim))

    def forward(self, t):
        half = self.dim // 2
        freqs = torch.exp(-math.log(10000.0) * torch.arange(half, device=t.device) / half)
        args = t.float()[:, None] * freqs[None]
        return self.mlp(torch.cat([args.sin(), args.cos()], dim=-1))


class Denoiser(nn.Module):
    def __init__(self, ch=32):
        super().__init__()
        self.temb = TimeEmbedding(ch)
        self.inp = nn.Conv2d(1, ch, 3, padding=1)
        self.mid = nn.Sequential(nn.GroupNorm(8, ch), nn.SiLU(), nn.Conv2d(ch, ch, 3, padding=1))
        self.out = nn.Conv2d(ch, 1, 3, padding=1)

    def forward(self, x, t):
        h = self.inp(x) + self.temb(t)[:, :, None, None]
        return self.out(F.silu(self.mid(h) + h))


class GaussianDiffusion(nn.Module):
    def __init__(self, net, timesteps=200):
        super().__init__()
        self.net = net
        self.T = timesteps
        betas = torch.linspace(1e-4, 0.02, timesteps)
        self.alpha_bar = torch.cumprod(1.0 - betas, dim=0)  # expect: DEV010

    def forward(self, x0):
        b = x0.size(0)
        t = torch.randint(0, self.T, (b,), device=x0.device)
        noise = torch.randn_like(x0)
        ab = self.alpha_bar[t].view(b, 1, 1, 1)
        xt = ab.sqrt() * x0 + (1.0 - ab).sqrt() * noise
        return F.mse_loss(self.net(xt, t), noise)


@torch.no_grad()
def ema_update(ema, model, decay=0.995):
    for p_ema, p in zip(ema.parameters(), model.parameters()):
        p_ema.mul_(decay).add_(p.detach(), alpha=1.0 - decay)


def make_blobs(n, size=16):
    yy, xx = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    cx, cy = torch.randint(4, size - 4, (2, n, 1, 1))
    img = torch.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / 8.0)
    return (img * 2 - 1).unsqueeze(1).float()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    model = GaussianDiffusion(Denoiser())
    ema = copy.deepcopy(model)  # expect: DEV016
    ema.requires_grad_(False)
    model.to(device)

    opt = torch.optim.Adam(model.parameters(), lr=2e-4)
    data = make_blobs(512)
    for step in range(200):
        x0 = data[torch.randint(0, len(data), (32,))].to(device)
        loss = model(x0)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        ema_update(ema, model)
        if step % 50 == 0:
            print(f"step {step} loss {loss.item():.4f}")

    torch.save({"model": model.state_dict(), "ema": ema.state_dict()}, "ddpm_blobs.pt")


if __name__ == "__main__":
    main()
