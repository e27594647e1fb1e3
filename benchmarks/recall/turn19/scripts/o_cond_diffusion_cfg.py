"""Class-conditional DDPM with classifier-free guidance (toy "digits" made of bars).

Training drops the label 10% of the time (replaced by the null class), sampling mixes
conditional and unconditional predictions with a guidance weight.
"""
import argparse
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

NUM_CLASSES = 4
IMG = 12


class DDPMScheduler:
    """Same interface as the diffusers scheduler we used before (add_noise / step)."""

    def __init__(self, num_train_timesteps=100, beta_start=1e-4, beta_end=0.02):
        self.num_train_timesteps = num_train_timesteps
        # schedule kept in float64 numpy, like the guided-diffusion code
        self.betas = np.linspace(beta_start, beta_end, num_train_timesteps, dtype=np.float64)
        self.alphas = 1.0 - self.betas
        self.alphas_cumprod = torch.from_numpy(np.cumprod(self.alphas)).float()  # expect: DEV006

    def add_noise(self, original_samples, noise, timesteps):
        sqrt_alpha_prod = self.alphas_cumprod[timesteps] ** 0.5
        sqrt_one_minus_alpha_prod = (1 - self.alphas_cumprod[timesteps]) ** 0.5
        while sqrt_alpha_prod.dim() < original_samples.dim():
            sqrt_alpha_prod = sqrt_alpha_prod.unsqueeze(-1)
            sqrt_one_minus_alpha_prod = sqrt_one_minus_alpha_prod.unsqueeze(-1)
        return sqrt_alpha_prod * original_samples + sqrt_one_minus_alpha_prod * noise

    def step(self, model_output, t, sample):
        # t is a python int here
        alpha_t = float(self.alphas[t])
        alpha_bar_t = self.alphas_cumprod[t]
        beta_t = float(self.betas[t])
        mean = (sample - beta_t / (1 - alpha_bar_t).sqrt() * model_output) / math.sqrt(alpha_t)
        if t > 0:
            mean = mean + math.sqrt(beta_t) * torch.randn_like(sample)
        return mean


class CondNet(nn.Module):
    def __init__(self, ch=32):
        super().__init__()
        self.label_emb = nn.Embedding(NUM_CLASSES + 1, ch)  # last index = null label
        self.t_proj = nn.Linear(32, ch)
        self.conv_in = nn.Conv2d(1, ch, 3, padding=1)
        self.mid = nn.Conv2d(ch, ch, 3, padding=1)
        self.conv_out = nn.Conv2d(ch, 1, 3, padding=1)

    @staticmethod
    def timestep_embedding(t, dim=32):
        half = dim // 2
        freqs = torch.exp(-math.log(10000) * torch.arange(half, device=t.device).float() / half)
        ang = t.float()[:, None] * freqs[None]
        return torch.cat([ang.sin(), ang.cos()], dim=1)

    def forward(self, x, t, y):
        cond = self.t_proj(self.timestep_embedding(t)) + self.label_emb(y)
        h = F.silu(self.conv_in(x) + cond[:, :, None, None])
        h = F.silu(self.mid(h))
        return self.conv_out(h)


def toy_dataset(n=400):
    imgs = torch.full((n, 1, IMG, IMG), -1.0)
    labels = torch.randint(0, NUM_CLASSES, (n,))
    for i, c in enumerate(labels.tolist()):
        if c == 0:
            imgs[i, 0, :, 5:7] = 1.0
        elif c == 1:
            imgs[i, 0, 5:7, :] = 1.0
        elif c == 2:
            imgs[i, 0].fill_diagonal_(1.0)
        else:
            imgs[i, 0, 2:10, 2:10] = 1.0
    return TensorDataset(imgs, labels)


@torch.no_grad()
def sample(model, scheduler, class_ids, guidance_scale, device):
    n = len(class_ids)
    labels = torch.tensor(class_ids)  # expect: DEV006
    null = torch.full((n,), NUM_CLASSES, dtype=torch.long, device=device)
    x = torch.randn(n, 1, IMG, IMG, device=device)
    for t in reversed(range(scheduler.num_train_timesteps)):
        t_batch = torch.full((2 * n,), t, dtype=torch.long, device=device)
        eps = model(torch.cat([x, x]), t_batch, torch.cat([labels, null]))
        eps_cond, eps_uncond = eps.chunk(2)
        eps = eps_uncond + guidance_scale * (eps_cond - eps_uncond)
        x = scheduler.step(eps, t, x)
    return x.clamp(-1, 1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--p-uncond", type=float, default=0.1)
    parser.add_argument("--guidance", type=float, default=3.0)
    parser.add_argument("--cpu", action="store_true")
    args = parser.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() and not args.cpu else "cpu")
    scheduler = DDPMScheduler(num_train_timesteps=50)
    model = CondNet().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    loader = DataLoader(toy_dataset(), batch_size=40, shuffle=True)

    for epoch in range(args.epochs):
        for images, labels in loader:
            images, labels = images.to(device), labels.to(device)
            drop = torch.rand(labels.shape[0], device=device) < args.p_uncond
            labels = torch.where(drop, torch.full_like(labels, NUM_CLASSES), labels)
            noise = torch.randn_like(images)
            timesteps = torch.randint(0, scheduler.num_train_timesteps, (images.shape[0],), device=device)
            noisy = scheduler.add_noise(images, noise, timesteps)
            loss = F.mse_loss(model(noisy, timesteps, labels), noise)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")

    samples = sample(model, scheduler, [0, 1, 2, 3], args.guidance, device)
    print("samples", tuple(samples.shape), float(samples.mean()))


if __name__ == "__main__":
    main()
