import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import Dataset

TOKENS = ["<blank>", "y", "e", "s", "n", "o", " "]


class SyntheticCommands(Dataset):
    def __init__(self, n=30, n_mels=24, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.items = []
        for _ in range(n):
            frames = int(torch.randint(28, 44, (1,), generator=g))
            feats = torch.randn(frames, n_mels, generator=g)
            label = torch.randint(1, len(TOKENS), (int(torch.randint(2, 6, (1,), generator=g)),), generator=g)
            self.items.append((feats, label))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    feats, labels = zip(*batch)
    return (
        pad_sequence(feats, batch_first=True),
        torch.tensor([f.size(0) for f in feats]),
        torch.cat(labels),
        torch.tensor([l.size(0) for l in labels]),
    )
