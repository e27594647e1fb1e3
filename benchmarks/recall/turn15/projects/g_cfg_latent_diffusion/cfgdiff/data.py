import torch
from torch.utils.data import Dataset


class ToyLatents(Dataset):
    """Stand-in for pre-encoded VAE latents: one gaussian blob per class."""

    def __init__(self, cfg, n=256, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.labels = torch.randint(0, cfg.num_classes, (n,), generator=g)
        means = torch.randn(cfg.num_classes, cfg.latent_channels, 1, 1, generator=g)
        noise = 0.3 * torch.randn(n, cfg.latent_channels, cfg.latent_size, cfg.latent_size, generator=g)
        self.latents = means[self.labels] + noise

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.latents[i], self.labels[i]
