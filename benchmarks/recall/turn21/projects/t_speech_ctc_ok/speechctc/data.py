import torch
from torch.nn.utils.rnn import pad_sequence

from .config import ALPHABET


def synthetic_corpus(n=40, n_mels=40, seed=0):
    g = torch.Generator().manual_seed(seed)
    corpus = []
    for _ in range(n):
        frames = int(torch.randint(30, 60, (1,), generator=g))
        chars = int(torch.randint(3, 9, (1,), generator=g))
        corpus.append((torch.randn(frames, n_mels, generator=g), torch.randint(1, len(ALPHABET), (chars,), generator=g)))
    return corpus


def collate(items):
    feats, labels = zip(*items)
    return {
        "feats": pad_sequence(feats, batch_first=True),
        "feat_lens": torch.tensor([f.shape[0] for f in feats], dtype=torch.long),
        "labels": pad_sequence(labels, batch_first=True),
        "label_lens": torch.tensor([l.shape[0] for l in labels], dtype=torch.long),
    }
