"""Train the class-conditional latent denoiser and dump a guided sample grid.

    python train.py --epochs 1 --out samples.npy
"""
import argparse

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from cfgdiff import DiffusionConfig, LatentDenoiser, NoiseSchedule
from cfgdiff.data import ToyLatents
from cfgdiff.sampling import ddim_guided, latents_to_grid


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--out", default="samples.npy")
    args = ap.parse_args()
    cfg = DiffusionConfig(epochs=args.epochs)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    schedule = NoiseSchedule(cfg.timesteps, cfg.beta_start, cfg.beta_end)
    model = LatentDenoiser(cfg).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    loader = DataLoader(ToyLatents(cfg), batch_size=cfg.batch_size, shuffle=True, drop_last=True)

    for epoch in range(cfg.epochs):
        for latents, labels in loader:
            latents = latents.to(device, non_blocking=True)
            noise = torch.randn_like(latents)
            t = schedule.sample_timesteps(latents.shape[0], device)
            x_t = schedule.add_noise(latents, noise, t)
            eps_pred = model(x_t, t, labels)  # expect: DEV002
            loss = F.mse_loss(eps_pred, noise)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")

    labels = torch.arange(8, device=device) % cfg.num_classes
    shape = (8, cfg.latent_channels, cfg.latent_size, cfg.latent_size)
    samples = ddim_guided(model, schedule, labels, shape, cfg.guidance_scale, cfg.sample_steps)
    grid = latents_to_grid(samples)
    np.save(args.out, grid)
    print("saved", args.out, grid.shape)


if __name__ == "__main__":
    main()
