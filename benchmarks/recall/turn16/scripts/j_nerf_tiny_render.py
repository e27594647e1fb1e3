"""Tiny NeRF (no hierarchical sampling) on a synthetic scene: a coloured sphere seen by a ring
of cameras. Follows the structure of the original tiny_nerf notebook."""
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def posenc(x, L_embed=6):
    rets = [x]
    for i in range(L_embed):
        for fn in (torch.sin, torch.cos):
            rets.append(fn(2.0 ** i * x))
    return torch.cat(rets, -1)


class TinyNeRF(nn.Module):
    def __init__(self, L_embed=6, W=64):
        super().__init__()
        d_in = 3 + 3 * 2 * L_embed
        self.L = L_embed
        self.net = nn.Sequential(nn.Linear(d_in, W), nn.ReLU(), nn.Linear(W, W), nn.ReLU(), nn.Linear(W, 4))

    def forward(self, pts):
        return self.net(posenc(pts, self.L))


def get_rays(H, W, focal, c2w):
    i, j = torch.meshgrid(torch.linspace(0, W - 1, W), torch.linspace(0, H - 1, H), indexing="xy")  # expect: DEV006
    dirs = torch.stack([(i - W * 0.5) / focal, -(j - H * 0.5) / focal, -torch.ones_like(i)], -1)
    rays_d = torch.sum(dirs[..., None, :] * c2w[:3, :3], -1)
    rays_o = c2w[:3, -1].expand(rays_d.shape)
    return rays_o, rays_d


def render_rays(model, rays_o, rays_d, near, far, n_samples, rand=False):
    t_vals = torch.linspace(0.0, 1.0, steps=n_samples)  # expect: DEV006
    z_vals = near * (1.0 - t_vals) + far * t_vals
    z_vals = z_vals.expand(list(rays_o.shape[:-1]) + [n_samples]).clone()
    if rand:
        mids = 0.5 * (z_vals[..., 1:] + z_vals[..., :-1])
        upper = torch.cat([mids, z_vals[..., -1:]], -1)
        lower = torch.cat([z_vals[..., :1], mids], -1)
        z_vals = lower + (upper - lower) * torch.rand_like(z_vals)

    pts = rays_o[..., None, :] + rays_d[..., None, :] * z_vals[..., :, None]
    raw = model(pts.reshape(-1, 3)).reshape(list(pts.shape[:-1]) + [4])
    sigma = F.relu(raw[..., 3])
    rgb = torch.sigmoid(raw[..., :3])

    dists = torch.cat([z_vals[..., 1:] - z_vals[..., :-1], torch.full_like(z_vals[..., :1], 1e10)], -1)
    alpha = 1.0 - torch.exp(-sigma * dists)
    trans = torch.cumprod(torch.cat([torch.ones_like(alpha[..., :1]), 1.0 - alpha + 1e-10], -1), -1)[..., :-1]
    weights = alpha * trans
    rgb_map = torch.sum(weights[..., None] * rgb, -2)
    depth_map = torch.sum(weights * z_vals, -1)
    return rgb_map, depth_map


def look_at(theta, radius=4.0):
    cam = np.array([radius * math.cos(theta), 0.5, radius * math.sin(theta)])
    fwd = -cam / np.linalg.norm(cam)
    right = np.cross(fwd, [0, 1, 0]); right /= np.linalg.norm(right)
    up = np.cross(right, fwd)
    c2w = np.eye(4, dtype=np.float32)
    c2w[:3, 0], c2w[:3, 1], c2w[:3, 2], c2w[:3, 3] = right, up, -fwd, cam
    return c2w


def synthetic_images(poses, H, W, focal):
    """Ground-truth renders of a unit sphere coloured by its normal (analytic ray-sphere hit)."""
    imgs = []
    for c2w in poses:
        ii, jj = np.meshgrid(np.arange(W), np.arange(H), indexing="xy")
        d = np.stack([(ii - W * 0.5) / focal, -(jj - H * 0.5) / focal, -np.ones_like(ii)], -1) @ c2w[:3, :3].T
        d /= np.linalg.norm(d, axis=-1, keepdims=True)
        o = c2w[:3, 3]
        b = d @ o
        disc = b ** 2 - (o @ o - 1.0)
        t = -b - np.sqrt(np.clip(disc, 0, None))
        n = o + t[..., None] * d
        img = np.where((disc > 0)[..., None], 0.5 * (n + 1), 0.0)
        imgs.append(img.astype(np.float32))
    return np.stack(imgs)


def main():
    H = W = 24
    focal = 30.0
    poses = np.stack([look_at(t) for t in np.linspace(0, 2 * np.pi, 12, endpoint=False)])
    images = synthetic_images(poses, H, W, focal)

    images = torch.from_numpy(images).to(device)
    poses = torch.from_numpy(poses).to(device)
    model = TinyNeRF().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    n_rand, near, far, n_samples = 256, 2.0, 6.0, 32

    for it in range(60):
        img_i = np.random.randint(len(images) - 1)
        target, pose = images[img_i], poses[img_i]
        rays_o, rays_d = get_rays(H, W, focal, pose)
        select = torch.randint(0, H * W, (n_rand,))
        rays_o = rays_o.reshape(-1, 3)[select]
        rays_d = rays_d.reshape(-1, 3)[select]
        target_s = target.reshape(-1, 3)[select]

        rgb, _ = render_rays(model, rays_o, rays_d, near, far, n_samples, rand=True)
        loss = F.mse_loss(rgb, target_s)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if it % 20 == 0:
            psnr = -10.0 * torch.log10(loss)
            print(f"iter {it}: loss {loss.item():.4f} psnr {psnr.item():.2f}")

    with torch.no_grad():
        rays_o, rays_d = get_rays(H, W, focal, poses[-1])
        rgb, depth = render_rays(model, rays_o, rays_d, near, far, n_samples)
        print("held-out mse:", F.mse_loss(rgb, images[-1]).item())


if __name__ == "__main__":
    main()
