"""DDPM with the noise schedule registered as buffers; a plain CPU copy is kept for logging."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import torch
import torch.nn as nn
import torch.nn.functional as F


class EpsNet(nn.Module):
    def __init__(self, ch=16, T=50):
        super().__init__()
        self.temb = nn.Embedding(T, ch)
        self.inp = nn.Conv2d(1, ch, 3, padding=1)
        self.out = nn.Conv2d(ch, 1, 3, padding=1)

    def forward(self, x, t):
        return self.out(F.silu(self.inp(x) + self.temb(t)[:, :, None, None]))


class GaussianDiffusion(nn.Module):
    def __init__(self, net, T=50):
        super().__init__()
        self.net, self.T = net, T
        betas = torch.linspace(1e-4, 0.05, T)
        self.register_buffer("betas", betas)
        self.register_buffer("alphas_cumprod", torch.cumprod(1.0 - betas, dim=0))
        self.snr_table = (self.alphas_cumprod / (1 - self.alphas_cumprod)).tolist()

    def forward(self, x0):
        t = torch.randint(0, self.T, (x0.size(0),), device=x0.device)
        noise = torch.randn_like(x0)
        ab = self.alphas_cumprod[t].view(-1, 1, 1, 1)
        xt = ab.sqrt() * x0 + (1 - ab).sqrt() * noise
        return F.mse_loss(self.net(xt, t), noise)

    @torch.no_grad()
    def sample(self, n, shape=(1, 8, 8)):
        x = torch.randn(n, *shape, device=self.betas.device)
        cpu_betas = torch.linspace(1e-4, 0.05, self.T)
        for i in reversed(range(self.T)):
            t = torch.full((n,), i, dtype=torch.long, device=x.device)
            eps = self.net(x, t)
            beta = cpu_betas[i]
            ab = self.alphas_cumprod[i]
            x = (x - beta / (1 - ab).sqrt() * eps) / (1 - beta).sqrt()
            if i > 0:
                x = x + beta.sqrt() * torch.randn_like(x)
        return x


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    diffusion = GaussianDiffusion(EpsNet()).to(device)
    opt = torch.optim.Adam(diffusion.parameters(), lr=2e-3)
    data = torch.tanh(torch.randn(256, 1, 8, 8))
    for epoch in range(3):
        for i in range(0, len(data), 64):
            loss = diffusion(data[i:i + 64].to(device))
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f} snr[0]={diffusion.snr_table[0]:.1f}")
    samples = diffusion.sample(4).clamp(-1, 1).cpu()
    fig, axes = plt.subplots(1, 4)
    for ax, img in zip(axes, samples):
        ax.imshow(img[0].numpy(), cmap="gray")
        ax.axis("off")
    fig.savefig("/tmp/ddpm_ok.png")


if __name__ == "__main__":
    main()
