import torch
from torch.utils.data import Dataset


class SyntheticSensorWindows(Dataset):
    """Windows of 3-axis acceleration with one activity label per timestep."""

    def __init__(self, n, window, n_channels, n_classes, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.labels = torch.zeros(n, window, dtype=torch.long)
        self.signals = torch.zeros(n, n_channels, window)
        for i in range(n):
            cut = int(torch.randint(8, window - 8, (1,), generator=g))
            a, b = torch.randint(0, n_classes, (2,), generator=g).tolist()
            self.labels[i, :cut], self.labels[i, cut:] = a, b
            freq = (self.labels[i].float() + 1.0) * 0.4
            t = torch.arange(window, dtype=torch.float32)
            self.signals[i] = torch.sin(freq * t) + 0.3 * torch.randn(n_channels, window, generator=g)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.signals[i], self.labels[i]


def class_weights(dataset, n_classes):
    """Inverse-frequency weights over all timesteps of the dataset."""
    counts = torch.bincount(dataset.labels.flatten(), minlength=n_classes).float()
    w = counts.sum() / (n_classes * counts.clamp(min=1.0))
    return w / w.mean()
