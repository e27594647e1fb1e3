"""CFG + DDIM done right: noise and timesteps made on the labels' device, CPU schedule read with Python ints. Class-conditional denoiser with classifier-free guidance: a few training steps, then a DDIM sampler and a sample grid."""
import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import torch
import torch.nn as nn
import torch.nn.functional as F

T = 100
NUM_CLASSES = 4


class CondDenoiser(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.t_emb = nn.Embedding(T, hidden)
        self.c_emb = nn.Embedding(NUM_CLASSES + 1, hidden)  # last index = "no class" for CFG
        self.inp = nn.Conv2d(1, hidden, 3, padding=1)
        self.out = nn.Conv2d(hidden, 1, 3, padding=1)

    def forward(self, x, t, c):
        h = F.silu(self.inp(x))
        h = h + (self.t_emb(t) + self.c_emb(c))[:, :, None, None]
        return self.out(F.silu(h))


def make_schedule():
    betas = torch.linspace(1e-4, 0.02, T)
    return torch.cumprod(1 - betas, 0)


@torch.no_grad()
def ddim_sample(model, alphas_bar, labels, steps=20, guidance=3.0):
    n = labels.size(0)
    x = torch.randn(n, 1, 16, 16, device=labels.device)
    null = torch.full_like(labels, NUM_CLASSES)
    ts = torch.linspace(T - 1, 0, steps).long().tolist()
    for i, t in enumerate(ts):
        t_batch = torch.full((n,), t, dtype=torch.long, device=labels.device)
        eps_c = model(x, t_batch, labels)
        eps_u = model(x, t_batch, null)
        eps = eps_u + guidance * (eps_c - eps_u)
        ab = alphas_bar[t]
        ab_prev = alphas_bar[ts[i + 1]] if i + 1 < len(ts) else torch.tensor(1.0)
        x0 = (x - (1 - ab).sqrt() * eps) / ab.sqrt()
        x = ab_prev.sqrt() * x0.clamp(-1, 1) + (1 - ab_prev).sqrt() * eps
    return x


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--train-steps", type=int, default=20)
    ap.add_argument("--out", default="/tmp/r_ddim_grid.png")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    alphas_bar = make_schedule()
    model = CondDenoiser().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    ab_dev = alphas_bar.to(device)
    for step in range(args.train_steps):
        c = torch.randint(0, NUM_CLASSES, (32,), device=device)
        x0 = torch.tanh(torch.randn(32, 1, 16, 16, device=device) + c.float()[:, None, None, None])
        c = torch.where(torch.rand(32, device=device) < 0.1, torch.full_like(c, NUM_CLASSES), c)
        t = torch.randint(0, T, (32,), device=device)
        noise = torch.randn_like(x0)
        ab = ab_dev[t][:, None, None, None]
        loss = F.mse_loss(model(ab.sqrt() * x0 + (1 - ab).sqrt() * noise, t, c), noise)
        opt.zero_grad()
        loss.backward()
        opt.step()

    model.eval()
    labels = torch.arange(NUM_CLASSES, device=device).repeat_interleave(2)
    samples = ddim_sample(model, alphas_bar, labels)
    grid = samples.clamp(-1, 1).squeeze(1).cpu().numpy()
    fig, axes = plt.subplots(1, len(grid), figsize=(2 * len(grid), 2))
    for ax, img, lab in zip(axes, grid, labels.tolist()):
        ax.imshow(img, cmap="gray")
        ax.set_title(str(lab))
        ax.axis("off")
    fig.savefig(args.out)


if __name__ == "__main__":
    main()
