"""Turning a class-conditional denoiser into a classifier-free-guidance model, then sampling.

Written from lucidrains "How to understand Null_Logits in Classifier Free Guidance?", torchebm
"Classifier-free guidance: label dropout in training, guidance wrapper for sampling" and the
diffusers "handle device for randn in euler step" / "fix noise device in ddim step" fixes:
the label table grows a "null" row after the model is on the GPU (a fresh CPU nn.Embedding),
and the sampler builds the null labels on the CPU.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

NUM_CLASSES, T = 4, 100


class CondDenoiser(nn.Module):
    def __init__(self, num_classes=NUM_CLASSES, dim=64, data_dim=16):
        super().__init__()
        self.label_emb = nn.Embedding(num_classes, dim)
        self.t_emb = nn.Embedding(T, dim)
        self.net = nn.Sequential(nn.Linear(data_dim + dim, 128), nn.SiLU(), nn.Linear(128, 128),
                                 nn.SiLU(), nn.Linear(128, data_dim))

    def forward(self, x, t, y):
        cond = self.label_emb(y) + self.t_emb(t)
        return self.net(torch.cat([x, cond], dim=-1))


class Schedule:
    def __init__(self, device, T=T):
        betas = torch.linspace(1e-4, 0.03, T, device=device)
        self.alpha_bar = torch.cumprod(1 - betas, 0)

    def noise(self, x0, t, eps):
        ab = self.alpha_bar[t][:, None]
        return ab.sqrt() * x0 + (1 - ab).sqrt() * eps


def class_data(n, device):
    y = torch.randint(0, NUM_CLASSES, (n,), device=device)
    centers = torch.linspace(-2, 2, NUM_CLASSES, device=device)[y][:, None]
    return centers + 0.1 * torch.randn(n, 16, device=device), y


@torch.no_grad()
def sample_cfg(model, sched, labels, guidance=3.0, steps=20):
    n = labels.size(0)
    x = torch.randn(n, 16, device=labels.device)
    null = torch.full((n,), NUM_CLASSES)  # expect: DEV006
    for t in range(T - 1, -1, -(T // steps)):
        t_in = torch.full((2 * n,), t, device=x.device, dtype=torch.long)
        eps = model(torch.cat([x, x]), t_in, torch.cat([labels, null]))
        eps_c, eps_u = eps.chunk(2)
        eps = eps_u + guidance * (eps_c - eps_u)
        ab = sched.alpha_bar[t]
        x0 = (x - (1 - ab).sqrt() * eps) / ab.sqrt()
        t_prev = max(t - T // steps, 0)
        ab_prev = sched.alpha_bar[t_prev] if t > 0 else torch.ones((), device=x.device)
        x = ab_prev.sqrt() * x0 + (1 - ab_prev).sqrt() * eps
    return x


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    sched = Schedule(device)
    model = CondDenoiser().to(device)

    # grow the label table by one "null" row so the model can learn the unconditional branch
    old = model.label_emb
    model.label_emb = nn.Embedding(NUM_CLASSES + 1, old.embedding_dim)  # expect: DEV015
    with torch.no_grad():
        model.label_emb.weight[:NUM_CLASSES] = old.weight

    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(300):
        x0, y = class_data(128, device)
        drop = torch.rand(y.shape, device=device) < 0.15
        y = torch.where(drop, torch.full_like(y, NUM_CLASSES), y)
        t = torch.randint(0, T, (x0.size(0),), device=device)
        eps = torch.randn_like(x0)
        loss = F.mse_loss(model(sched.noise(x0, t, eps), t, y), eps)
        opt.zero_grad()
        loss.backward()
        opt.step()

    labels = torch.arange(NUM_CLASSES, device=device).repeat_interleave(8)
    samples = sample_cfg(model, sched, labels)
    means = samples.mean(dim=1).view(NUM_CLASSES, 8).mean(dim=1)
    print("per-class sample means:", means.cpu().numpy().round(2))


if __name__ == "__main__":
    main()
