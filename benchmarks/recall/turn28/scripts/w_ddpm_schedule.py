"""Minimal DDPM on 8x8 blobs: linear beta schedule, epsilon prediction, ancestral sampling."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def timestep_embedding(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000.0) * torch.arange(half, dtype=torch.float32) / half)  # expect: DEV006
    args = t[:, None].float() * freqs[None]
    return torch.cat([torch.sin(args), torch.cos(args)], dim=-1)


class TinyUNet(nn.Module):
    def __init__(self, ch=32, tdim=32):
        super().__init__()
        self.tdim = tdim
        self.t_mlp = nn.Sequential(nn.Linear(tdim, ch), nn.SiLU(), nn.Linear(ch, ch))
        self.down = nn.Conv2d(1, ch, 3, padding=1)
        self.mid = nn.Conv2d(ch, ch, 3, padding=1)
        self.up = nn.Conv2d(ch, 1, 3, padding=1)

    def forward(self, x, t):
        h = F.silu(self.down(x))
        h = h + self.t_mlp(timestep_embedding(t, self.tdim))[:, :, None, None]
        h = F.silu(self.mid(h))
        return self.up(h)


class Diffusion(nn.Module):
    def __init__(self, model, T=100, beta_start=1e-4, beta_end=0.02):
        super().__init__()
        self.model = model
        self.T = T
        betas = torch.linspace(beta_start, beta_end, T)
        self.betas = betas
        self.alphas = 1.0 - betas
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)  # expect: DEV010

    def loss(self, x0):
        b = x0.size(0)
        t = torch.randint(0, self.T, (b,), device=x0.device)
        noise = torch.randn_like(x0)
        a_bar = self.alphas_cumprod[t].view(b, 1, 1, 1)
        xt = a_bar.sqrt() * x0 + (1 - a_bar).sqrt() * noise
        return F.mse_loss(self.model(xt, t), noise)

    @torch.no_grad()
    def sample(self, n, device):
        x = torch.randn(n, 1, 8, 8, device=device)
        for i in reversed(range(self.T)):
            t = torch.full((n,), i, device=device, dtype=torch.long)
            eps = self.model(x, t)
            beta, alpha, a_bar = self.betas[i], self.alphas[i], self.alphas_cumprod[i]
            mean = (x - beta / (1 - a_bar).sqrt() * eps) / alpha.sqrt()
            x = mean + beta.sqrt() * torch.randn_like(x) if i > 0 else mean
        return x


def blobs(n):
    yy, xx = torch.meshgrid(torch.arange(8.0), torch.arange(8.0), indexing="ij")
    cx, cy = torch.randint(2, 6, (n, 1, 1)).float(), torch.randint(2, 6, (n, 1, 1)).float()
    img = torch.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / 3.0)
    return (img * 2 - 1).unsqueeze(1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    data = blobs(256)
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(data), batch_size=32, shuffle=True)
    diffusion = Diffusion(TinyUNet()).to(device)
    opt = torch.optim.AdamW(diffusion.parameters(), lr=2e-4)
    for epoch in range(2):
        for (x0,) in loader:
            x0 = x0.to(device)
            loss = diffusion.loss(x0)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")
    samples = diffusion.sample(4, device)
    print("sample range", samples.min().item(), samples.max().item())


if __name__ == "__main__":
    main()
