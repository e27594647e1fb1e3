"""Minimal DDPM on 8x8 blobs: the schedule lives on the diffusion wrapper."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class EpsNet(nn.Module):
    def __init__(self, ch=16, T=50):
        super().__init__()
        self.temb = nn.Embedding(T, ch)
        self.inp = nn.Conv2d(1, ch, 3, padding=1)
        self.mid = nn.Conv2d(ch, ch, 3, padding=1)
        self.out = nn.Conv2d(ch, 1, 3, padding=1)

    def forward(self, x, t):
        h = F.silu(self.inp(x)) + self.temb(t)[:, :, None, None]
        h = F.silu(self.mid(h))
        return self.out(h)


class GaussianDiffusion(nn.Module):
    def __init__(self, net, T=50):
        super().__init__()
        self.net = net
        self.T = T
        betas = torch.linspace(1e-4, 0.05, T)
        self.betas = betas
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)  # expect: DEV010
        self.register_buffer("sqrt_recip_alphas", torch.sqrt(1.0 / (1.0 - betas)))

    def q_sample(self, x0, t, noise):
        ab = self.alphas_cumprod[t].view(-1, 1, 1, 1)
        return ab.sqrt() * x0 + (1 - ab).sqrt() * noise

    def forward(self, x0):
        t = torch.randint(0, self.T, (x0.size(0),), device=x0.device)
        noise = torch.randn_like(x0)
        xt = self.q_sample(x0, t, noise)
        return F.mse_loss(self.net(xt, t), noise)

    @torch.no_grad()
    def sample(self, n, shape=(1, 8, 8)):
        device = self.sqrt_recip_alphas.device
        x = torch.randn(n, *shape, device=device)
        for i in reversed(range(self.T)):
            t = torch.full((n,), i, dtype=torch.long)  # expect: DEV006
            eps = self.net(x, t)
            beta = self.betas[i]
            ab = self.alphas_cumprod[i]
            x = self.sqrt_recip_alphas[i] * (x - beta / (1 - ab).sqrt() * eps)
            if i > 0:
                x = x + beta.sqrt() * torch.randn_like(x)
        return x


def blobs(n):
    yy, xx = torch.meshgrid(torch.arange(8.0), torch.arange(8.0), indexing="ij")
    cx, cy = torch.randint(2, 6, (2, n, 1, 1)).float()
    img = torch.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / 3.0)
    return (img * 2 - 1).unsqueeze(1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    diffusion = GaussianDiffusion(EpsNet()).to(device)
    opt = torch.optim.Adam(diffusion.parameters(), lr=2e-3)
    data = blobs(256)
    for epoch in range(3):
        perm = torch.randperm(len(data))
        for i in range(0, len(data), 64):
            x0 = data[perm[i:i + 64]].to(device)
            loss = diffusion(x0)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")
    samples = diffusion.sample(4)
    print("sample range", samples.min().item(), samples.max().item())


if __name__ == "__main__":
    main()
