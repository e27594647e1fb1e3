"""Minimal NeRF: rays from a pinhole camera, stratified samples, volume rendering."""
import math
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class RenderConfig:
    H: int = 16
    W: int = 16
    focal: float = 20.0
    near: float = 2.0
    far: float = 6.0
    n_samples: int = 32
    chunk: int = 128
    iters: int = 5


def positional_encoding(x, n_freqs=6):
    out = [x]
    for i in range(n_freqs):
        out += [torch.sin((2.0 ** i) * math.pi * x), torch.cos((2.0 ** i) * math.pi * x)]
    return torch.cat(out, -1)


class TinyNeRF(nn.Module):
    def __init__(self, n_freqs=6, width=64):
        super().__init__()
        d_in = 3 + 3 * 2 * n_freqs
        self.mlp = nn.Sequential(nn.Linear(d_in, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU(),
                                 nn.Linear(width, 4))

    def forward(self, pts):
        return self.mlp(positional_encoding(pts))


def get_rays(H, W, focal, c2w):
    i, j = torch.meshgrid(torch.arange(W, dtype=torch.float32, device=c2w.device),
                          torch.arange(H, dtype=torch.float32, device=c2w.device), indexing="xy")
    dirs = torch.stack([(i - W * 0.5) / focal, -(j - H * 0.5) / focal, -torch.ones_like(i)], -1)
    rays_d = torch.sum(dirs[..., None, :] * c2w[:3, :3], -1)
    rays_o = c2w[:3, -1].expand(rays_d.shape)
    return rays_o.reshape(-1, 3), rays_d.reshape(-1, 3)


def raw2outputs(raw, z_vals, rays_d):
    dists = z_vals[..., 1:] - z_vals[..., :-1]
    dists = torch.cat([dists, torch.tensor([1e10]).expand(dists[..., :1].shape)], -1)  # expect: DEV006
    dists = dists * torch.norm(rays_d[..., None, :], dim=-1)
    rgb = torch.sigmoid(raw[..., :3])
    alpha = 1.0 - torch.exp(-torch.relu(raw[..., 3]) * dists)
    trans = torch.cumprod(torch.cat([torch.ones_like(alpha[..., :1]), 1.0 - alpha + 1e-10], -1), -1)[..., :-1]
    weights = alpha * trans
    return torch.sum(weights[..., None] * rgb, -2)


def render_rays(model, rays_o, rays_d, cfg):
    t = torch.linspace(0.0, 1.0, cfg.n_samples)  # expect: DEV006
    z_vals = cfg.near * (1.0 - t) + cfg.far * t
    z_vals = z_vals.expand(rays_o.shape[0], cfg.n_samples)
    pts = rays_o[..., None, :] + rays_d[..., None, :] * z_vals[..., :, None]
    raw = model(pts)
    return raw2outputs(raw, z_vals, rays_d)


def main():
    cfg = RenderConfig()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = TinyNeRF().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=5e-4)

    c2w = torch.eye(4, device=device)
    c2w[2, 3] = 4.0
    target = torch.rand(cfg.H * cfg.W, 3, device=device)
    rays_o, rays_d = get_rays(cfg.H, cfg.W, cfg.focal, c2w)

    for it in range(cfg.iters):
        sel = torch.randperm(rays_o.shape[0], device=device)[: cfg.chunk]
        rgb = render_rays(model, rays_o[sel], rays_d[sel], cfg)
        loss = torch.mean((rgb - target[sel]) ** 2)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"iter {it} mse {loss.item():.4f} psnr {-10 * torch.log10(loss).item():.2f}")


if __name__ == "__main__":
    main()
