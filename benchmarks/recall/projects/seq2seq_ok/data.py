"""Variable-length reversal pairs collated into dict batches."""
import torch
from torch.utils.data import Dataset

PAD, SOS, EOS = 0, 1, 2


class ReversalDataset(Dataset):
    def __init__(self, n, vocab_size, min_len=3, max_len=7, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.items = []
        for _ in range(n):
            length = int(torch.randint(min_len, max_len + 1, (1,), generator=g))
            self.items.append(torch.randint(3, vocab_size, (length,), generator=g))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        src = self.items[i]
        return src, torch.cat([src.flip(0), torch.tensor([EOS])])


def collate(pairs):
    srcs, tgts = zip(*pairs)
    src = torch.nn.utils.rnn.pad_sequence(srcs, batch_first=True, padding_value=PAD)
    tgt = torch.nn.utils.rnn.pad_sequence(tgts, batch_first=True, padding_value=PAD)
    return {"src": src, "src_lengths": torch.tensor([len(s) for s in srcs]), "tgt": tgt}
