"""Volume-rendering toy: fit a small radiance field to renders of a two-colour box.

Ray generation, stratified sampling and the Fourier features all build their tensors on
the device of the camera pose, so the same code runs on CPU or GPU.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class FourierFeatures(nn.Module):
    def __init__(self, n_freqs=6):
        super().__init__()
        self.register_buffer("freqs", 2.0 ** torch.arange(n_freqs, dtype=torch.float32) * torch.pi)

    def forward(self, x):
        xf = x[..., None] * self.freqs            # (..., 3, F)
        xf = xf.flatten(-2)
        return torch.cat([x, xf.sin(), xf.cos()], dim=-1)


class Field(nn.Module):
    def __init__(self, n_freqs=6, hidden=64):
        super().__init__()
        self.enc = FourierFeatures(n_freqs)
        d = 3 + 2 * 3 * n_freqs
        self.mlp = nn.Sequential(nn.Linear(d, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, 4))

    def forward(self, pts):
        out = self.mlp(self.enc(pts))
        return torch.sigmoid(out[..., :3]), F.softplus(out[..., 3])


def camera_rays(H, W, focal, c2w):
    dev = c2w.device
    ys, xs = torch.meshgrid(torch.arange(H, device=dev, dtype=torch.float32),
                            torch.arange(W, device=dev, dtype=torch.float32), indexing="ij")
    dirs = torch.stack([(xs - W / 2) / focal, -(ys - H / 2) / focal, -torch.ones_like(xs)], dim=-1)
    rays_d = dirs @ c2w[:3, :3].T
    rays_o = c2w[:3, 3].expand_as(rays_d)
    return rays_o.reshape(-1, 3), rays_d.reshape(-1, 3)


def stratified_samples(rays_o, near, far, n, perturb=True):
    t = torch.linspace(0.0, 1.0, n + 1, device=rays_o.device)
    lo, hi = t[:-1], t[1:]
    u = torch.rand(rays_o.shape[0], n, device=rays_o.device) if perturb else torch.full(
        (rays_o.shape[0], n), 0.5, device=rays_o.device)
    t = lo + (hi - lo) * u
    return near + (far - near) * t


def composite(field, rays_o, rays_d, near=2.0, far=6.0, n=32, perturb=True):
    z = stratified_samples(rays_o, near, far, n, perturb)
    pts = rays_o[:, None, :] + rays_d[:, None, :] * z[..., None]
    rgb, sigma = field(pts)
    delta = torch.diff(z, dim=-1, append=z[:, -1:] + 1e10)
    alpha = 1 - torch.exp(-sigma * delta)
    T = torch.cumprod(torch.cat([torch.ones_like(alpha[:, :1]), 1 - alpha + 1e-10], -1), -1)[:, :-1]
    w = alpha * T
    return (w[..., None] * rgb).sum(1), (w * z).sum(1)


def orbit_pose(angle, radius=4.0):
    a = torch.as_tensor(angle, dtype=torch.float32)
    cam = torch.stack([radius * torch.cos(a), torch.tensor(0.8), radius * torch.sin(a)])
    fwd = -cam / cam.norm()
    right = torch.linalg.cross(fwd, torch.tensor([0.0, 1.0, 0.0]))
    right = right / right.norm()
    up = torch.linalg.cross(right, fwd)
    c2w = torch.eye(4)
    c2w[:3, 0], c2w[:3, 1], c2w[:3, 2], c2w[:3, 3] = right, up, -fwd, cam
    return c2w


@torch.no_grad()
def box_render(rays_o, rays_d):
    """Analytic slab-test render of an axis-aligned box [-1,1]^3: left half red, right half blue."""
    inv = 1.0 / rays_d
    t0, t1 = (-1 - rays_o) * inv, (1 - rays_o) * inv
    tmin = torch.minimum(t0, t1).amax(-1)
    tmax = torch.maximum(t0, t1).amin(-1)
    hit = tmax > tmin.clamp(min=0)
    p = rays_o + rays_d * tmin[:, None]
    col = torch.where((p[:, 0] < 0)[:, None], torch.tensor([0.9, 0.1, 0.1], device=p.device),
                      torch.tensor([0.1, 0.2, 0.9], device=p.device))
    return torch.where(hit[:, None], col, torch.zeros_like(col))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--iters", type=int, default=60)
    ap.add_argument("--res", type=int, default=24)
    ap.add_argument("--rays", type=int, default=256)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = ap.parse_args()
    dev = torch.device(args.device)

    H = W = args.res
    focal = 1.2 * W
    poses = torch.stack([orbit_pose(a) for a in torch.linspace(0, 6.28, 10)]).to(dev)
    rays = [camera_rays(H, W, focal, p) for p in poses]
    targets = torch.stack([box_render(o, d) for o, d in rays])

    field = Field().to(dev)
    opt = torch.optim.Adam(field.parameters(), lr=5e-3)
    # exponential lr decay table; looked up with a python int each step
    lr_table = torch.logspace(0, -1, steps=args.iters)

    for it in range(args.iters):
        view = it % (len(poses) - 1)
        o, d = rays[view]
        idx = torch.randperm(H * W)[: args.rays]
        rgb, _ = composite(field, o[idx], d[idx])
        loss = F.mse_loss(rgb, targets[view][idx])
        for g in opt.param_groups:
            g["lr"] = 5e-3 * lr_table[it].item()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if it % 20 == 0:
            print(f"{it:4d} loss {loss.item():.4f}")

    with torch.no_grad():
        o, d = rays[-1]
        rgb, depth = composite(field, o, d, perturb=False)
        print("val psnr", (-10 * torch.log10(F.mse_loss(rgb, targets[-1]))).item())
        print("depth range", depth.min().item(), depth.max().item())


if __name__ == "__main__":
    main()
