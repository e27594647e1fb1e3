"""Entry point: train the tiny denoiser, then sample and save a grid."""
import torch
import torch.nn.functional as F

from tinydiff.config import TrainConfig
from tinydiff.logging_utils import save_grid
from tinydiff.model import Denoiser
from tinydiff.sampling import ddpm_sample
from tinydiff.schedule import NoiseSchedule


def make_data(n=512):
    yy, xx = torch.meshgrid(torch.arange(8.0), torch.arange(8.0), indexing="ij")
    c = torch.randint(2, 6, (2, n, 1, 1)).float()
    img = torch.exp(-((xx - c[0]) ** 2 + (yy - c[1]) ** 2) / 2.5)
    return (img * 2 - 1).unsqueeze(1)


def main(cfg: TrainConfig = TrainConfig()):
    device = cfg.device
    model = Denoiser(cfg.channels, cfg.time_dim).to(device)
    schedule = NoiseSchedule(cfg.timesteps).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    data = make_data()
    for epoch in range(cfg.epochs):
        perm = torch.randperm(len(data))
        for i in range(0, len(data), cfg.batch_size):
            x0 = data[perm[i:i + cfg.batch_size]].to(device)
            t = schedule.sample_timesteps(x0.size(0), device)
            noise = torch.randn_like(x0)
            loss = F.mse_loss(model(schedule.add_noise(x0, t, noise), t), noise)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")
    samples = ddpm_sample(model, schedule, cfg.n_samples)
    print("mean pixel", round(save_grid(samples, cfg.out_png), 3))


if __name__ == "__main__":
    main()
