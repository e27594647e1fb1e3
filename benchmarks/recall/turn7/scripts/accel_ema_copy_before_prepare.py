"""Diffusion-style EMA of a small denoiser, trained with accelerate: the EMA copy is taken
right after the model is built."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def main():
    accelerator = Accelerator()
    model = nn.Sequential(nn.Linear(16, 64), nn.SiLU(), nn.Linear(64, 16))
    ema = copy.deepcopy(model)  # expect: DEV016
    ema.requires_grad_(False)
    opt = torch.optim.AdamW(model.parameters(), lr=2e-4)
    loader = DataLoader(TensorDataset(torch.randn(512, 16)), batch_size=32, shuffle=True)
    model, opt, loader = accelerator.prepare(model, opt, loader)
    for (clean,) in loader:
        noise = torch.randn_like(clean)
        loss = F.mse_loss(model(clean + 0.3 * noise), noise)
        accelerator.backward(loss)
        opt.step()
        opt.zero_grad()
        with torch.no_grad():
            for e, p in zip(ema.parameters(), accelerator.unwrap_model(model).parameters()):
                e.mul_(0.999).add_(p.detach(), alpha=0.001)
    accelerator.save(ema.state_dict(), "ema.pt")


if __name__ == "__main__":
    main()
