"""Denoising autoencoder for 1-D sensor traces trained with accelerate; an EMA copy of the
weights is kept for evaluation and updated after every optimizer step.

Thread: https://github.com/huggingface/diffusers/pull/2382 ([Examples] Make sure EMA works with
any device: the EMA weights must live on the device of the model accelerate prepared).
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


class DenoiseAE(nn.Module):
    def __init__(self, length=128, code=16):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(length, 64), nn.GELU(), nn.Linear(64, code))
        self.dec = nn.Sequential(nn.Linear(code, 64), nn.GELU(), nn.Linear(64, length))

    def forward(self, x):
        return self.dec(self.enc(x))


def main(decay=0.999):
    accelerator = Accelerator()
    model = DenoiseAE()
    ema = copy.deepcopy(model).eval()  # expect: DEV016
    ema.requires_grad_(False)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    t = torch.linspace(0, 6.28, 128)
    clean = torch.sin(t[None, :] * torch.randint(1, 5, (1024, 1)))
    loader = DataLoader(TensorDataset(clean), batch_size=64, shuffle=True)
    model, opt, loader = accelerator.prepare(model, opt, loader)

    for epoch in range(2):
        for (x,) in loader:
            noisy = x + 0.2 * torch.randn_like(x)
            loss = F.mse_loss(model(noisy), x)
            accelerator.backward(loss)
            opt.step()
            opt.zero_grad()
            with torch.no_grad():
                online = accelerator.unwrap_model(model)
                for e, p in zip(ema.parameters(), online.parameters()):
                    e.mul_(decay).add_(p.detach(), alpha=1 - decay)
        accelerator.print(f"epoch {epoch}: {loss.item():.4f}")


if __name__ == "__main__":
    main()
