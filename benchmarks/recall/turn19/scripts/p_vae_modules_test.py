import math

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvVAE(nn.Module):
    def __init__(self, latent_dim=8):
        super().__init__()
        self.latent_dim = latent_dim
        self.enc = nn.Sequential(nn.Conv2d(1, 16, 4, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 4, 2, 1), nn.ReLU(), nn.Flatten())
        self.mu = nn.Linear(32 * 7 * 7, latent_dim)
        self.logvar = nn.Linear(32 * 7 * 7, latent_dim)
        self.dec_in = nn.Linear(latent_dim, 32 * 7 * 7)
        self.dec = nn.Sequential(nn.ConvTranspose2d(32, 16, 4, 2, 1), nn.ReLU(), nn.ConvTranspose2d(16, 1, 4, 2, 1))

    def encode(self, x):
        h = self.enc(x)
        return self.mu(h), self.logvar(h)

    def reparameterize(self, mu, logvar):
        return mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)

    def decode(self, z):
        return self.dec(self.dec_in(z).view(-1, 32, 7, 7))

    def forward(self, x):
        mu, logvar = self.encode(x)
        return self.decode(self.reparameterize(mu, logvar)), mu, logvar


def elbo_loss(recon_logits, x, mu, logvar, beta=1.0):
    rec = F.binary_cross_entropy_with_logits(recon_logits, x, reduction="sum") / x.size(0)
    kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / x.size(0)
    return rec + beta * kl


@pytest.fixture
def model():
    torch.manual_seed(0)
    return ConvVAE()


def test_reconstruction_shape(model):
    x = torch.rand(4, 1, 28, 28)
    recon, mu, logvar = model(x)
    assert recon.shape == x.shape
    assert mu.shape == logvar.shape == (4, model.latent_dim)


def test_kl_is_zero_at_prior():
    mu = torch.zeros(3, 8)
    logvar = torch.zeros(3, 8)
    x = torch.full((3, 1, 28, 28), 0.5)
    recon_logits = torch.zeros_like(x)
    loss = elbo_loss(recon_logits, x, mu, logvar)
    assert loss.item() == pytest.approx(28 * 28 * math.log(2), rel=1e-5)


def test_eval_mode_sampling_is_deterministic_given_seed(model):
    model.eval()
    torch.manual_seed(1)
    a = model.decode(torch.randn(2, model.latent_dim))
    torch.manual_seed(1)
    b = model.decode(torch.randn(2, model.latent_dim))
    assert torch.equal(a, b)


@pytest.mark.gpu
def test_training_step_on_gpu(model):
    model = model.to("cuda")  # expect: DEV022
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x = torch.rand(8, 1, 28, 28).to(next(model.parameters()).device)
    recon, mu, logvar = model(x)
    loss = elbo_loss(recon, x, mu, logvar)
    loss.backward()
    opt.step()
    assert torch.isfinite(loss)
