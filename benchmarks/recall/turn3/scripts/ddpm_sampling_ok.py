"""DDPM sampling with a CPU noise schedule indexed by Python ints (0-dim CPU tensors meet CUDA ones legally),
and a schedule moved to the device for the training step that indexes it with a device tensor."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Schedule:
    def __init__(self, T=100):
        self.T = T
        self.betas = torch.linspace(1e-4, 0.02, T)
        self.alphas = 1.0 - self.betas
        self.alpha_bars = torch.cumprod(self.alphas, dim=0)


class EpsModel(nn.Module):
    def __init__(self, dim=8, T=100):
        super().__init__()
        self.t_emb = nn.Embedding(T, 32)
        self.net = nn.Sequential(nn.Linear(dim + 32, 128), nn.SiLU(), nn.Linear(128, dim))

    def forward(self, x, t):
        return self.net(torch.cat([x, self.t_emb(t)], dim=-1))


def train_step(model, opt, sched, x0, alpha_bars_dev):
    t = torch.randint(0, sched.T, (x0.size(0),), device=x0.device)
    noise = torch.randn_like(x0)
    ab = alpha_bars_dev[t].unsqueeze(-1)
    loss = F.mse_loss(model(ab.sqrt() * x0 + (1 - ab).sqrt() * noise, t), noise)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


@torch.no_grad()
def sample(model, sched, n, dim, device):
    x = torch.randn(n, dim, device=device)
    for i in reversed(range(sched.T)):
        t = torch.full((n,), i, device=device, dtype=torch.long)
        eps = model(x, t)
        coef = sched.betas[i] / torch.sqrt(1 - sched.alpha_bars[i])
        x = (x - coef * eps) / torch.sqrt(sched.alphas[i])
        if i > 0:
            x = x + torch.sqrt(sched.betas[i]) * torch.randn_like(x)
    return x


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    sched = Schedule()
    model = EpsModel().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    alpha_bars_dev = sched.alpha_bars.to(device)
    data = torch.randn(2048, 8) * 0.5 + 1.0
    for epoch in range(3):
        for x0 in data.split(256):
            train_step(model, opt, sched, x0.to(device), alpha_bars_dev)
    print(sample(model, sched, 16, 8, device).mean().item())
