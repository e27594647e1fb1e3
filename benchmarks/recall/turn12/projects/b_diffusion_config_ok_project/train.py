"""Train the 2-d diffusion model and plot EMA samples: python train.py --steps 600 [--resume]"""
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F

from config import parse_config
from model import build_denoiser
from schedule import LinearSchedule
from utils import chamfer, ema_update, make_ema, moons, to_numpy


def main(argv=None):
    cfg = parse_config(argv)
    torch.manual_seed(0)
    device = torch.device(cfg.device)
    data = moons(8000, generator=torch.Generator().manual_seed(0))

    schedule = LinearSchedule(cfg.timesteps, cfg.beta_start, cfg.beta_end).to(device)
    model = build_denoiser(cfg).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    start = 0
    if cfg.resume and os.path.exists(cfg.checkpoint):
        state = torch.load(cfg.checkpoint, map_location=device)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        start = state["step"]
    ema = make_ema(model)

    for step in range(start, start + cfg.steps):
        x0 = data[torch.randint(0, len(data), (cfg.batch_size,))].to(device)
        t = torch.randint(0, cfg.timesteps, (cfg.batch_size,), device=device)
        noise = torch.randn_like(x0)
        loss = F.mse_loss(model(schedule.q_sample(x0, t, noise), t), noise)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        ema_update(ema, model, cfg.ema_decay)
        if step % 200 == 0:
            print(f"step {step} loss {loss.item():.4f}")

    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "step": start + cfg.steps}, cfg.checkpoint)
    samples = schedule.sample(ema, cfg.num_samples)
    score = chamfer(samples, data[: cfg.num_samples].to(device))
    pts = to_numpy(samples)
    plt.figure(figsize=(4, 4))
    plt.scatter(pts[:, 0], pts[:, 1], s=2)
    plt.title(f"EMA samples, chamfer {score:.3f}")
    plt.savefig(os.path.splitext(cfg.checkpoint)[0] + ".png")


if __name__ == "__main__":
    main()
