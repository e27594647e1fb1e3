"""Tiny NeRF: rays from a pinhole camera, stratified samples, volume rendering, one view rendered."""
import argparse
import math

import numpy as np
import torch
import torch.nn as nn


def positional_encoding(x, n_freqs=4):
    out = [x]
    for i in range(n_freqs):
        out += [torch.sin((2.0 ** i) * x), torch.cos((2.0 ** i) * x)]
    return torch.cat(out, -1)


class TinyNeRF(nn.Module):
    def __init__(self, n_freqs=4, width=64):
        super().__init__()
        d_in = 3 * (1 + 2 * n_freqs)
        self.n_freqs = n_freqs
        self.mlp = nn.Sequential(nn.Linear(d_in, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU(), nn.Linear(width, 4))

    def forward(self, pts):
        out = self.mlp(positional_encoding(pts, self.n_freqs))
        return torch.sigmoid(out[..., :3]), torch.relu(out[..., 3])


def get_rays(H, W, focal, c2w):
    dev = c2w.device
    i, j = torch.meshgrid(torch.arange(W, dtype=torch.float32, device=dev), torch.arange(H, dtype=torch.float32, device=dev), indexing="xy")
    dirs = torch.stack([(i - W * 0.5) / focal, -(j - H * 0.5) / focal, -torch.ones_like(i)], -1)
    rays_d = dirs @ c2w[:3, :3].T
    rays_o = c2w[:3, 3].expand(rays_d.shape)
    return rays_o, rays_d


def render_rays(model, rays_o, rays_d, near, far, n_samples):
    t = torch.linspace(near, far, n_samples, device=rays_o.device)
    t = t.expand(*rays_o.shape[:-1], n_samples).clone()
    t = t + torch.rand_like(t) * (far - near) / n_samples
    pts = rays_o[..., None, :] + rays_d[..., None, :] * t[..., :, None]
    rgb, sigma = model(pts)
    delta = torch.cat([t[..., 1:] - t[..., :-1], torch.full_like(t[..., :1], 1e10)], -1)
    alpha = 1.0 - torch.exp(-sigma * delta)
    trans = torch.cumprod(torch.cat([torch.ones_like(alpha[..., :1]), 1.0 - alpha + 1e-10], -1), -1)[..., :-1]
    weights = alpha * trans
    return (weights[..., None] * rgb).sum(-2)


def pose(theta):
    c, s = math.cos(theta), math.sin(theta)
    return torch.tensor([[c, 0, s, 4 * s], [0, 1, 0, 0], [-s, 0, c, 4 * c], [0, 0, 0, 1]], dtype=torch.float32)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--iters", type=int, default=3)
    ap.add_argument("--res", type=int, default=16)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    H = W = args.res
    focal = 0.8 * W
    images = torch.rand(4, H, W, 3, device=device)
    poses = torch.stack([pose(k * math.pi / 2) for k in range(4)]).to(device)

    model = TinyNeRF().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=5e-4)
    for it in range(args.iters):
        k = it % 4
        rays_o, rays_d = get_rays(H, W, focal, poses[k])
        rgb = render_rays(model, rays_o, rays_d, 2.0, 6.0, 16)
        loss = ((rgb - images[k]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"iter {it} mse {loss.item():.4f}")

    with torch.no_grad():
        rays_o, rays_d = get_rays(H, W, focal, pose(0.3).to(device))
        rgb = render_rays(model, rays_o, rays_d, 2.0, 6.0, 16)
    frame = (np.clip(rgb.cpu().numpy(), 0, 1) * 255).astype(np.uint8)
    print("rendered", frame.shape, frame.dtype)


if __name__ == "__main__":
    main()
