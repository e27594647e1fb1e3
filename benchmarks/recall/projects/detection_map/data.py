import torch
from torch.utils.data import DataLoader, Dataset


class SyntheticBoxes(Dataset):
    """Noise images with one to three bright rectangles, each a labelled object."""

    def __init__(self, n, num_classes, image_size=32, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.items = []
        for _ in range(n):
            img = torch.rand(3, image_size, image_size, generator=g) * 0.2
            k = int(torch.randint(1, 4, (1,), generator=g))
            xy = torch.randint(0, image_size - 10, (k, 2), generator=g).float()
            wh = torch.randint(4, 10, (k, 2), generator=g).float()
            boxes = torch.cat([xy, xy + wh], dim=1)
            labels = torch.randint(1, num_classes + 1, (k,), generator=g)
            for (x1, y1, x2, y2), c in zip(boxes.long().tolist(), labels.tolist()):
                img[c % 3, y1:y2, x1:x2] = 1.0
            self.items.append((img, {"boxes": boxes, "labels": labels}))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    images, targets = zip(*batch)
    return torch.stack(images), list(targets)


def build_loaders(num_classes, batch_size=8):
    train = DataLoader(SyntheticBoxes(48, num_classes, seed=0), batch_size=batch_size,
                       shuffle=True, collate_fn=collate)
    val = DataLoader(SyntheticBoxes(16, num_classes, seed=1), batch_size=batch_size,
                     collate_fn=collate)
    return train, val
