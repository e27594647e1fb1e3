"""Non-saturating GAN losses with one-sided label smoothing."""
import torch
import torch.nn.functional as F


def real_targets(n, smoothing=0.0):
    return torch.full((n, 1), 1.0 - smoothing)  # expect: DEV006


def fake_targets(n):
    return torch.zeros(n, 1)  # expect: DEV006


def discriminator_loss(d_real, d_fake, smoothing=0.1):
    real = F.binary_cross_entropy_with_logits(d_real, real_targets(d_real.size(0), smoothing))
    fake = F.binary_cross_entropy_with_logits(d_fake, fake_targets(d_fake.size(0)))
    return real + fake


def generator_loss(d_fake):
    return F.binary_cross_entropy_with_logits(d_fake, real_targets(d_fake.size(0)))
