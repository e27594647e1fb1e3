"""Class-conditional diffusion with classifier-free guidance on toy 1-D signals.

Conditioning dropout replaces the label with a learned null class; sampling mixes
the conditional and unconditional predictions with a guidance scale.
"""
import copy
import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class Config:
    num_classes: int = 4
    length: int = 32
    timesteps: int = 100
    p_uncond: float = 0.1
    guidance: float = 3.0
    ema_decay: float = 0.995
    batch_size: int = 32
    epochs: int = 3
    lr: float = 3e-4


def toy_signals(n, length, num_classes, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, num_classes, (n,), generator=g)
    xs = torch.linspace(0, 2 * math.pi, length)
    x = torch.sin((y[:, None] + 1).float() * xs[None, :]) + 0.05 * torch.randn(n, length, generator=g)
    return x.unsqueeze(1), y


class CondDenoiser(nn.Module):
    def __init__(self, cfg: Config, hidden=64):
        super().__init__()
        self.null_class = cfg.num_classes
        self.label_emb = nn.Embedding(cfg.num_classes + 1, hidden)
        self.t_emb = nn.Embedding(cfg.timesteps, hidden)
        self.net = nn.Sequential(
            nn.Conv1d(1 + hidden, hidden, 5, padding=2), nn.SiLU(),
            nn.Conv1d(hidden, hidden, 5, padding=2), nn.SiLU(),
            nn.Conv1d(hidden, 1, 5, padding=2),
        )

    def forward(self, x, t, y):
        cond = (self.label_emb(y) + self.t_emb(t))[:, :, None].expand(-1, -1, x.shape[-1])
        return self.net(torch.cat([x, cond], dim=1))


class Trainer:
    def __init__(self, cfg: Config, device):
        self.cfg = cfg
        self.device = device
        self.model = CondDenoiser(cfg)
        self.ema = copy.deepcopy(self.model).eval()  # expect: DEV016
        for p in self.ema.parameters():
            p.requires_grad_(False)
        self.model.to(device)
        self.opt = torch.optim.AdamW(self.model.parameters(), lr=cfg.lr)
        betas = torch.linspace(1e-4, 0.02, cfg.timesteps, device=device)
        self.alphas = 1.0 - betas
        self.alphas_cumprod = torch.cumprod(self.alphas, 0)

    @torch.no_grad()
    def update_ema(self):
        d = self.cfg.ema_decay
        for e, p in zip(self.ema.parameters(), self.model.parameters()):
            e.mul_(d).add_(p.detach(), alpha=1 - d)

    def drop_labels(self, y):
        drop = torch.rand(y.shape[0]) < self.cfg.p_uncond  # expect: DEV006
        return torch.where(drop, torch.full_like(y, self.model.null_class), y)

    def train_step(self, x0, y):
        t = torch.randint(0, self.cfg.timesteps, (x0.shape[0],), device=self.device)
        noise = torch.randn_like(x0)
        ab = self.alphas_cumprod[t][:, None, None]
        xt = ab.sqrt() * x0 + (1 - ab).sqrt() * noise
        y = self.drop_labels(y)
        loss = F.mse_loss(self.model(xt, t, y), noise)
        self.opt.zero_grad(set_to_none=True)
        loss.backward()
        self.opt.step()
        self.update_ema()
        return loss.item()

    @torch.no_grad()
    def sample(self, labels):
        n = labels.shape[0]
        x = torch.randn(n, 1, self.cfg.length, device=self.device)
        null = torch.full_like(labels, self.ema.null_class)
        for i in reversed(range(self.cfg.timesteps)):
            t = torch.full((n,), i, device=self.device, dtype=torch.long)
            eps_c = self.ema(x, t, labels)
            eps_u = self.ema(x, t, null)
            eps = eps_u + self.cfg.guidance * (eps_c - eps_u)
            a, ab = self.alphas[i], self.alphas_cumprod[i]
            x = (x - (1 - a) / (1 - ab).sqrt() * eps) / a.sqrt()
            if i > 0:
                x = x + (1 - a).sqrt() * torch.randn_like(x)
        return x

    def fit(self, loader):
        for epoch in range(self.cfg.epochs):
            losses = []
            for x0, y in loader:
                losses.append(self.train_step(x0.to(self.device), y.to(self.device)))
            print(f"epoch {epoch} loss {sum(losses) / len(losses):.4f}")


if __name__ == "__main__":
    cfg = Config()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x, y = toy_signals(256, cfg.length, cfg.num_classes)
    loader = DataLoader(TensorDataset(x, y), batch_size=cfg.batch_size, shuffle=True)
    trainer = Trainer(cfg, device)
    trainer.fit(loader)
    samples = trainer.sample(torch.arange(cfg.num_classes, device=device))
    print("samples", tuple(samples.shape), samples.std().item())
