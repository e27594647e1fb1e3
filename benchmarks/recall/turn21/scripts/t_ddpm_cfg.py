"""Class-conditional DDPM on 2-D toy data with classifier-free guidance at sampling
time (label dropout during training, a null class for the unconditional branch)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

T_STEPS, N_CLASSES = 100, 3


def timestep_embedding(t, dim=32):
    half = dim // 2
    freqs = torch.exp(-math.log(10000) * torch.arange(half, device=t.device) / half)
    args = t.float()[:, None] * freqs[None]
    return torch.cat([torch.sin(args), torch.cos(args)], -1)


class Denoiser(nn.Module):
    def __init__(self, width=128):
        super().__init__()
        self.label_emb = nn.Embedding(N_CLASSES + 1, 32)  # last index = null class
        self.net = nn.Sequential(nn.Linear(2 + 32 + 32, width), nn.SiLU(), nn.Linear(width, width), nn.SiLU(),
                                 nn.Linear(width, 2))

    def forward(self, x, t, y):
        return self.net(torch.cat([x, timestep_embedding(t), self.label_emb(y)], -1))


class GaussianDiffusion(nn.Module):
    def __init__(self, model, beta_start=1e-4, beta_end=0.02, p_uncond=0.1):
        super().__init__()
        self.model = model
        self.p_uncond = p_uncond
        self.betas = torch.linspace(beta_start, beta_end, T_STEPS)
        self.alphas_cumprod = torch.cumprod(1.0 - self.betas, dim=0)  # expect: DEV010

    def forward(self, x0, y):
        t = torch.randint(0, T_STEPS, (x0.shape[0],), device=x0.device)
        noise = torch.randn_like(x0)
        a_bar = self.alphas_cumprod[t].unsqueeze(-1)
        x_t = a_bar.sqrt() * x0 + (1 - a_bar).sqrt() * noise
        drop = torch.rand(y.shape[0], device=y.device) < self.p_uncond
        y = torch.where(drop, torch.full_like(y, N_CLASSES), y)
        return F.mse_loss(self.model(x_t, t, y), noise)

    @torch.no_grad()
    def sample(self, labels, guidance=2.0):
        n, device = labels.shape[0], labels.device
        x = torch.randn(n, 2, device=device)
        null_labels = torch.full((n,), N_CLASSES, dtype=torch.long)  # expect: DEV006
        for i in reversed(range(T_STEPS)):
            t = torch.full((n,), i, device=device, dtype=torch.long)
            eps_c = self.model(x, t, labels)
            eps_u = self.model(x, t, null_labels)
            eps = eps_u + guidance * (eps_c - eps_u)
            # python-int indexing of the CPU schedule gives 0-dim tensors: fine on any device
            beta, a_bar = self.betas[i], self.alphas_cumprod[i]
            mean = (x - beta / (1 - a_bar).sqrt() * eps) / (1 - beta).sqrt()
            x = mean + beta.sqrt() * torch.randn_like(x) if i > 0 else mean
        return x


def toy_data(n, g):
    y = torch.randint(0, N_CLASSES, (n,), generator=g)
    centers = torch.tensor([[-2.0, 0.0], [2.0, 0.0], [0.0, 2.5]])
    return centers[y] + 0.3 * torch.randn(n, 2, generator=g), y


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    diffusion = GaussianDiffusion(Denoiser()).to(device)
    opt = torch.optim.Adam(diffusion.parameters(), lr=2e-3)
    g = torch.Generator().manual_seed(0)
    for step in range(200):
        x0, y = toy_data(128, g)
        loss = diffusion(x0.to(device), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 50 == 0:
            print(f"step {step} loss {loss.item():.4f}")
    samples = diffusion.sample(torch.tensor([0, 1, 2, 2], device=device))
    print(samples.cpu())


if __name__ == "__main__":
    main()
