"""GAN losses whose targets are made next to the logits they are compared with."""
import torch
import torch.nn.functional as F


def real_targets(logits, smoothing=0.0):
    return torch.full_like(logits, 1.0 - smoothing)


def fake_targets(logits):
    return torch.zeros(logits.shape, device=logits.device)


def discriminator_loss(d_real, d_fake, smoothing=0.1):
    real = F.binary_cross_entropy_with_logits(d_real, real_targets(d_real, smoothing))
    fake = F.binary_cross_entropy_with_logits(d_fake, fake_targets(d_fake))
    return real + fake


def generator_loss(d_fake):
    return F.binary_cross_entropy_with_logits(d_fake, real_targets(d_fake))
