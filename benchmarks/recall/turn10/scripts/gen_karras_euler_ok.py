"""Correct look-alike: an Euler/Heun sampler over a Karras schedule kept on the CPU on purpose.
Indexing that schedule with a Python int gives a 0-dim CPU tensor, which PyTorch lets meet CUDA
tensors as a scalar; the per-sample sigma handed to the model is built with x.new_ones, on the
samples' device.

Thread: https://github.com/huggingface/diffusers/pull/6708 (sigmas deliberately kept on the CPU,
only the values that meet the latents moved).
"""
import torch
import torch.nn as nn


class Denoiser(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d + 1, 128), nn.SiLU(), nn.Linear(128, d))

    def forward(self, x, sigma):
        c_in = 1.0 / (sigma ** 2 + 1.0).sqrt()
        h = torch.cat([x * c_in[:, None], sigma.log()[:, None] / 4], dim=-1)
        return x - sigma[:, None] * self.net(h)


def karras_sigmas(n, sigma_min=0.02, sigma_max=80.0, rho=7.0):
    ramp = torch.linspace(0, 1, n)
    lo, hi = sigma_min ** (1 / rho), sigma_max ** (1 / rho)
    return torch.cat([(hi + ramp * (lo - hi)) ** rho, torch.zeros(1)])


@torch.no_grad()
def sample_heun(model, n, d, steps, device):
    sigmas = karras_sigmas(steps)
    x = torch.randn(n, d, device=device) * sigmas[0]
    s_in = x.new_ones(n)
    for i in range(steps):
        sigma, sigma_next = sigmas[i], sigmas[i + 1]
        slope = (x - model(x, sigma * s_in)) / sigma
        x_next = x + slope * (sigma_next - sigma)
        if sigma_next > 0:
            slope_next = (x_next - model(x_next, sigma_next * s_in)) / sigma_next
            x_next = x + (slope + slope_next) / 2 * (sigma_next - sigma)
        x = x_next
    return x


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Denoiser().to(device).eval()
    print(sample_heun(model, n=8, d=16, steps=12, device=device).std().item())
