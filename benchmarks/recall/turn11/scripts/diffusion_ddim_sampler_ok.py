"""Look-alike of diffusion_train_timesteps_cpu.py: training timesteps are drawn on the device,
the sampler reads the CPU schedule with Python ints (0-dim CPU tensors may meet CUDA tensors),
and the EMA copy is taken after the model has moved.

Thread: https://github.com/huggingface/diffusers/pull/648 ([DDIM, DDPM] fix add_noise: make sure
the alphas are on the same device as the original sample).
"""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

T = 200


class Denoiser(nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.t_emb = nn.Embedding(T, 32)
        self.net = nn.Sequential(nn.Linear(2 + 32, d), nn.SiLU(), nn.Linear(d, 2))

    def forward(self, x, t):
        return self.net(torch.cat([x, self.t_emb(t)], dim=-1))


@torch.no_grad()
def ddim_sample(model, alpha_bar, n, device, steps=20):
    x = torch.randn(n, 2, device=device)
    ts = list(range(T - 1, -1, -T // steps))
    for i, t in enumerate(ts):
        t_batch = torch.full((n,), t, device=device, dtype=torch.long)
        eps = model(x, t_batch)
        ab = alpha_bar[t]
        ab_prev = alpha_bar[ts[i + 1]] if i + 1 < len(ts) else torch.tensor(1.0)
        x0 = (x - (1 - ab).sqrt() * eps) / ab.sqrt()
        x = ab_prev.sqrt() * x0 + (1 - ab_prev).sqrt() * eps
    return x


def main(decay=0.995):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    alpha_bar = torch.cumprod(1 - torch.linspace(1e-4, 0.02, T), dim=0)
    alpha_bar_dev = alpha_bar.to(device)
    model = Denoiser().to(device)
    ema = copy.deepcopy(model).requires_grad_(False)
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
    theta = torch.rand(1024) * math.pi
    data = torch.stack([theta.cos(), theta.sin()], 1) + 0.05 * torch.randn(1024, 2)
    for step in range(300):
        x0 = data[torch.randint(0, len(data), (128,))].to(device)
        t = torch.randint(0, T, (x0.size(0),), device=device)
        noise = torch.randn_like(x0)
        ab = alpha_bar_dev[t].unsqueeze(-1)
        loss = F.mse_loss(model(ab.sqrt() * x0 + (1 - ab).sqrt() * noise, t), noise)
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            for pe, pm in zip(ema.parameters(), model.parameters()):
                pe.lerp_(pm, 1 - decay)
    samples = ddim_sample(ema, alpha_bar, 256, device)
    print("loss", round(loss.item(), 4), "sample radius", samples.norm(dim=1).mean().item())


if __name__ == "__main__":
    main()
