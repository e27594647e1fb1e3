import torch
from torch.utils.data import DataLoader, TensorDataset


def synthetic_split(n, num_classes, image_size, seed):
    g = torch.Generator().manual_seed(seed)
    images = torch.rand(n, 3, image_size, image_size, generator=g)
    labels = torch.randint(0, num_classes, (n,), generator=g)
    return TensorDataset(images, labels)


def build_loaders(num_classes=5, image_size=32, batch_size=16):
    train = synthetic_split(80, num_classes, image_size, seed=0)
    val = synthetic_split(32, num_classes, image_size, seed=1)
    return (DataLoader(train, batch_size=batch_size, shuffle=True, drop_last=True),
            DataLoader(val, batch_size=batch_size))


def to_device(batch, device):
    """Move a (images, labels) batch to `device`."""
    images, labels = batch
    return images.to(device, non_blocking=True), labels
