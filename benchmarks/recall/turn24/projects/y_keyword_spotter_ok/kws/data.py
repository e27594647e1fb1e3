import torch
from torch.utils.data import Dataset


class SyntheticUtterances(Dataset):
    def __init__(self, n, n_mels, n_keywords, min_frames, max_frames, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.items = []
        for _ in range(n):
            k = int(torch.randint(0, n_keywords, (1,), generator=g))
            T = int(torch.randint(min_frames, max_frames + 1, (1,), generator=g))
            feats = 0.5 * torch.randn(T, n_mels, generator=g)
            feats[:, k * 3:(k * 3) + 3] += 1.5
            self.items.append((feats, k))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    lengths = torch.tensor([f.shape[0] for f, _ in batch])
    feats = torch.nn.utils.rnn.pad_sequence([f for f, _ in batch], batch_first=True)
    return {"feats": feats, "lengths": lengths, "label": torch.tensor([k for _, k in batch])}


def label_smoothing_targets(labels, n_classes, eps=0.1):
    """Soft targets made on the labels' own device."""
    soft = torch.full((labels.shape[0], n_classes), eps / (n_classes - 1), device=labels.device)
    soft.scatter_(1, labels.unsqueeze(1), 1.0 - eps)
    return soft
