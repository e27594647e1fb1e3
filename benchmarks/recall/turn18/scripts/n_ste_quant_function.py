"""Learned compression toy: autoencoder with a noisy-rounding quantiser (custom autograd.Function)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class NoisyRound(torch.autograd.Function):
    """Training: additive uniform noise as a proxy for rounding. Eval: hard round.
    Gradient is passed straight through."""

    @staticmethod
    def forward(ctx, x, training):
        if training:
            noise = torch.empty(x.shape).uniform_(-0.5, 0.5)  # expect: DEV006
            return x + noise
        return torch.round(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output, None


class Quantizer(nn.Module):
    def forward(self, x):
        return NoisyRound.apply(x, self.training)


class AutoEncoder(nn.Module):
    def __init__(self, latent=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, 16, 4, 2, 1), nn.ReLU(), nn.Conv2d(16, latent, 4, 2, 1))
        self.quant = Quantizer()
        self.dec = nn.Sequential(nn.ConvTranspose2d(latent, 16, 4, 2, 1), nn.ReLU(),
                                 nn.ConvTranspose2d(16, 1, 4, 2, 1))

    def forward(self, x):
        y = self.quant(self.enc(x))
        return self.dec(y), y


def rate_proxy(y):
    # L1 on latents as a crude stand-in for an entropy model
    return y.abs().mean()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    data = torch.rand(64, 1, 16, 16)
    loader = DataLoader(TensorDataset(data), batch_size=16, shuffle=True)
    model = AutoEncoder().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    lam = 0.01
    for epoch in range(3):
        model.train()
        for (x,) in loader:
            x = x.to(device)
            x_hat, y = model(x)
            loss = F.mse_loss(x_hat, x) + lam * rate_proxy(y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            x_hat, y = model(data[:8].to(device))
            mse = F.mse_loss(x_hat, data[:8].to(device)).item()
        print(f"epoch {epoch} train {loss.item():.4f} eval mse {mse:.4f} unique latents {y.unique().numel()}")


if __name__ == "__main__":
    main()
