"""Euler sampler over a Karras noise schedule for a toy denoiser (k-diffusion style): the schedule
stays a CPU tensor and each step hands the model the current sigma broadcast to the batch.

Thread: https://github.com/huggingface/diffusers/pull/6757 (sdxl k-diffusion pipeline: move sigma
to device; the sigmas were kept on the CPU).
"""
import torch
import torch.nn as nn


class Denoiser(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d + 1, 128), nn.SiLU(), nn.Linear(128, 128), nn.SiLU(), nn.Linear(128, d))

    def forward(self, x, sigma):
        c_in = 1.0 / (sigma ** 2 + 1.0).sqrt()
        h = torch.cat([x * c_in[:, None], sigma.log()[:, None] / 4], dim=-1)
        return x - sigma[:, None] * self.net(h)


def karras_sigmas(n, sigma_min=0.02, sigma_max=80.0, rho=7.0):
    ramp = torch.linspace(0, 1, n)
    lo, hi = sigma_min ** (1 / rho), sigma_max ** (1 / rho)
    return torch.cat([(hi + ramp * (lo - hi)) ** rho, torch.zeros(1)])


@torch.no_grad()
def sample_euler(model, n, d, steps, device):
    sigmas = karras_sigmas(steps)
    x = torch.randn(n, d, device=device) * sigmas[0]
    s_in = torch.ones(n)  # expect: DEV006
    for i in range(steps):
        denoised = model(x, sigmas[i] * s_in)
        slope = (x - denoised) / sigmas[i]
        x = x + slope * (sigmas[i + 1] - sigmas[i])
    return x


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Denoiser().to(device).eval()
    print(sample_euler(model, n=8, d=16, steps=20, device=device).std().item())
