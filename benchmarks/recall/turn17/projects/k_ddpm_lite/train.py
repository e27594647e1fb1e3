"""Train a tiny DDPM on 16x16 glyphs and write a DDIM sample grid.

    python train.py --steps 200 --ckpt runs/ddpm.pt
    python train.py --steps 100 --ckpt runs/ddpm.pt --resume
"""
import argparse
import os

import numpy as np
import torch
import torch.nn.functional as F

from ddpm_lite import EMA, NoiseSchedule, TinyUNet, ddim_sample
from ddpm_lite.sampler import to_uint8_grid


def glyph_batch(n, size=16, generator=None):
    x = torch.full((n, 1, size, size), -1.0)
    pos = torch.randint(2, size - 4, (n, 2), generator=generator)
    for i, (r, c) in enumerate(pos.tolist()):
        x[i, 0, r:r + 3, :] = 1.0
        x[i, 0, :, c:c + 2] = 1.0
    return x


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--T", type=int, default=400)
    ap.add_argument("--ckpt", default="runs/ddpm.pt")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--device", default=None, help="cuda, cuda:N or cpu (default: auto)")
    args = ap.parse_args()

    device = torch.device(args.device or ("cuda" if torch.cuda.is_available() else "cpu"))
    model = TinyUNet().to(device)
    schedule = NoiseSchedule(args.T).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    start = 0

    if args.resume and os.path.exists(args.ckpt):
        state = torch.load(args.ckpt, map_location=device)
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["opt"])
        start = state["step"]
    ema = EMA(model, decay=0.995)
    if args.resume and os.path.exists(args.ckpt):
        ema.load_state_dict(state["ema"])

    g = torch.Generator().manual_seed(0)
    for step in range(start, start + args.steps):
        x0 = glyph_batch(args.batch, generator=g).to(device)
        t = schedule.sample_timesteps(x0.shape[0], device)
        noise = torch.randn_like(x0)
        loss = F.mse_loss(model(schedule.q_sample(x0, t, noise), t), noise)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        ema.update(model)
        if step % 50 == 0:
            print(f"step {step} loss {loss.item():.4f}")

    os.makedirs(os.path.dirname(args.ckpt) or ".", exist_ok=True)
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "ema": ema.state_dict(),
                "step": start + args.steps}, args.ckpt)

    samples = ddim_sample(ema.shadow, schedule, (8, 1, 16, 16), steps=25)
    grid = to_uint8_grid(samples)
    np.save(os.path.splitext(args.ckpt)[0] + "_grid.npy", grid)
    print("grid", grid.shape, grid.dtype)


if __name__ == "__main__":
    main()
