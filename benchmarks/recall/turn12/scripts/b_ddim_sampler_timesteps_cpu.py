"""DDIM-style sampler for a small 2-d diffusion model, trained in the same file.

Written from sampler threads: "Can we allow making everything on gpu/cuda for
scheduler?" (huggingface/diffusers#9485), "Expected all tensors to be on the
same device ... when checking argument for argument index in method
wrapper_CUDA__index_select" (lllyasviel/stable-diffusion-webui-forge#71) and
"Can't convert cuda tensor to numpy" at plotting time (thanard/causal-infogan#3).
Training is fine; in the sampling loop the timestep batch and the extra noise
are made on the CPU, and the samples go to matplotlib straight from the GPU.
"""
import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import torch
import torch.nn as nn
import torch.nn.functional as F


class Schedule(nn.Module):
    def __init__(self, timesteps=250):
        super().__init__()
        self.timesteps = timesteps
        betas = torch.linspace(1e-4, 0.02, timesteps)
        self.register_buffer("alphas_cumprod", torch.cumprod(1 - betas, dim=0))


class EpsNet(nn.Module):
    def __init__(self, timesteps, hidden=96):
        super().__init__()
        self.t_embed = nn.Embedding(timesteps, hidden)
        self.x_proj = nn.Linear(2, hidden)
        self.mlp = nn.Sequential(nn.GELU(), nn.Linear(hidden, hidden), nn.GELU(), nn.Linear(hidden, 2))

    def forward(self, x, t):
        return self.mlp(self.x_proj(x) + self.t_embed(t))


def checkerboard(n):
    x = torch.rand(n, 2) * 4 - 2
    keep = ((x[:, 0].floor() + x[:, 1].floor()) % 2) == 0
    return x[keep]


@torch.no_grad()
def ddim_sample(model, sched, n, num_steps=50, eta=0.5, device="cpu"):
    x = torch.randn(n, 2, device=device)
    ts = torch.linspace(sched.timesteps - 1, 0, num_steps).long()
    for i in range(num_steps):
        t = ts[i]
        t_batch = torch.full((n,), int(t), dtype=torch.long)  # expect: DEV006
        eps = model(x, t_batch)
        a_t = sched.alphas_cumprod[t]
        a_prev = sched.alphas_cumprod[ts[i + 1]] if i + 1 < num_steps else torch.tensor(1.0)
        x0_pred = (x - (1 - a_t).sqrt() * eps) / a_t.sqrt()
        sigma = eta * ((1 - a_prev) / (1 - a_t) * (1 - a_t / a_prev)).sqrt()
        noise = torch.randn(x.shape)  # expect: DEV006
        x = a_prev.sqrt() * x0_pred + (1 - a_prev - sigma ** 2).clamp(min=0).sqrt() * eps + sigma * noise
    return x


def main(train_steps=600):
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    sched = Schedule().to(device)
    model = EpsNet(sched.timesteps).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    data = checkerboard(20000)

    for step in range(train_steps):
        x0 = data[torch.randint(0, len(data), (512,))].to(device)
        t = torch.randint(0, sched.timesteps, (x0.size(0),), device=device)
        a = sched.alphas_cumprod[t][:, None]
        noise = torch.randn_like(x0)
        loss = F.mse_loss(model(a.sqrt() * x0 + (1 - a).sqrt() * noise, t), noise)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 200 == 0:
            print(f"step {step} loss {loss.item():.4f}")

    model.eval()
    samples = ddim_sample(model, sched, 2000, device=device)
    fig, ax = plt.subplots(figsize=(4, 4))
    ax.scatter(samples[:, 0].numpy(), samples[:, 1].numpy(), s=1)  # expect: DEV011
    ax.set_title(f"DDIM, {math.ceil(len(samples) / 1000)}k samples")
    fig.savefig("ddim_checkerboard.png")


if __name__ == "__main__":
    main()
