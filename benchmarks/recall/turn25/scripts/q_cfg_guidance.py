"""Class-conditional DDPM on 2-D gaussians with classifier-free guidance.

Training drops the label with probability p_uncond (replaced by the null class),
sampling mixes conditional and unconditional predictions with a guidance scale.
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

T = 50
BETAS = torch.linspace(1e-4, 0.05, T)
ALPHAS = 1.0 - BETAS
ALPHAS_BAR = torch.cumprod(ALPHAS, 0)


class CondNet(nn.Module):
    def __init__(self, num_classes, hidden=64):
        super().__init__()
        self.null_class = num_classes
        self.label_emb = nn.Embedding(num_classes + 1, hidden)
        self.time_emb = nn.Embedding(T, hidden)
        self.body = nn.Sequential(nn.Linear(2 + hidden, hidden), nn.SiLU(), nn.Linear(hidden, 2))

    def forward(self, x, t, y):
        return self.body(torch.cat([x, self.label_emb(y) + self.time_emb(t)], dim=-1))


def centers(num_classes):
    ang = torch.arange(num_classes) * (2 * np.pi / num_classes)
    return torch.stack([ang.cos(), ang.sin()], 1) * 2.0


def train(model, device, steps, num_classes, p_uncond=0.2):
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    abar = ALPHAS_BAR.to(device)
    c = centers(num_classes).to(device)
    for step in range(steps):
        y = torch.randint(0, num_classes, (128,), device=device)
        x0 = c[y] + 0.1 * torch.randn(128, 2, device=device)
        t = torch.randint(0, T, (128,), device=device)
        drop = torch.rand(128, device=device) < p_uncond
        y_in = torch.where(drop, torch.full_like(y, model.null_class), y)
        noise = torch.randn_like(x0)
        a = abar[t].unsqueeze(1)
        xt = a.sqrt() * x0 + (1 - a).sqrt() * noise
        loss = F.mse_loss(model(xt, t, y_in), noise)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


@torch.no_grad()
def sample_guided(model, labels, scale):
    device = labels.device
    n = labels.size(0)
    x = torch.randn(n, 2, device=device)
    null = torch.full((n,), model.null_class)  # expect: DEV006
    for i in reversed(range(T)):
        t = torch.full((n,), i, device=device, dtype=torch.long)
        eps_c = model(x, t, labels)
        eps_u = model(x, t, null)
        eps = eps_u + scale * (eps_c - eps_u)
        alpha, abar, beta = ALPHAS[i], ALPHAS_BAR[i], BETAS[i]
        mean = (x - beta / (1 - abar).sqrt() * eps) / alpha.sqrt()
        x = mean + (beta.sqrt() * torch.randn_like(x) if i > 0 else 0.0)
    return x


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--classes", type=int, default=4)
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--guidance", type=float, default=3.0)
    args = ap.parse_args()
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)

    model = CondNet(args.classes).to(device)
    print("final train loss", train(model, device, args.steps, args.classes))
    model.eval()
    labels = torch.arange(args.classes, device=device).repeat_interleave(16)
    samples = sample_guided(model, labels, args.guidance)
    pts = samples.numpy()  # expect: DEV011
    for k in range(args.classes):
        m = pts[labels.cpu().numpy() == k].mean(0)
        print(f"class {k}: mean sample ({m[0]:+.2f}, {m[1]:+.2f})")


if __name__ == "__main__":
    main()
