import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import Dataset


class SyntheticCommands(Dataset):
    """Each keyword is a short chirp at its own pitch, padded with noise."""

    def __init__(self, cfg, n_classes, n=96, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.items = []
        for _ in range(n):
            label = int(torch.randint(0, n_classes, (1,), generator=g))
            length = int(cfg.sample_rate * (0.4 + 0.4 * torch.rand(1, generator=g).item()))
            t = torch.arange(length) / cfg.sample_rate
            wav = 0.3 * torch.sin(2 * torch.pi * (200 + 150 * label) * t) + 0.05 * torch.randn(length, generator=g)
            self.items.append((wav, label))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    wavs, labels = zip(*batch)
    lens = torch.tensor([w.numel() for w in wavs])
    return pad_sequence(list(wavs), batch_first=True), lens, torch.tensor(labels)
