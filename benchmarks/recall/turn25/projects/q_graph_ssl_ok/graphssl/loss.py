import torch
import torch.nn.functional as F


def grace_loss(z1, z2, tau):
    """Symmetric node-level InfoNCE: node i in view 1 matches node i in view 2."""
    z1, z2 = F.normalize(z1, dim=1), F.normalize(z2, dim=1)
    logits = z1 @ z2.T / tau
    labels = torch.arange(z1.size(0), device=z1.device)
    return 0.5 * (F.cross_entropy(logits, labels) + F.cross_entropy(logits.T, labels))
