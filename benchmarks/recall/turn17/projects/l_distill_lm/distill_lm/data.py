import random
from typing import Dict, List

import torch
from torch.utils.data import DataLoader, Dataset

PAD, UNK = "<pad>", "<unk>"

_SUBJECTS = ["the cat", "a dog", "my friend", "the teacher", "our neighbour", "the child"]
_VERBS = ["sees", "likes", "finds", "follows", "calls", "helps"]
_OBJECTS = ["the ball", "a book", "the garden", "a red car", "the old house", "some bread"]


def toy_corpus(n_sentences: int = 1500, seed: int = 0) -> List[str]:
    rng = random.Random(seed)
    return [f"{rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} {rng.choice(_OBJECTS)} ."
            for _ in range(n_sentences)]


class Vocab:
    def __init__(self, texts: List[str]):
        words = sorted({w for t in texts for w in t.split()})
        self.itos = [PAD, UNK] + words
        self.stoi = {w: i for i, w in enumerate(self.itos)}

    def __len__(self):
        return len(self.itos)

    def encode(self, text: str) -> List[int]:
        return [self.stoi.get(w, 1) for w in text.split()]


class LMChunks(Dataset):
    """The corpus as one token stream cut into fixed-length windows."""

    def __init__(self, texts: List[str], vocab: Vocab, seq_len: int):
        stream = [i for t in texts for i in vocab.encode(t)]
        n = (len(stream) - 1) // seq_len
        self.data = torch.tensor(stream[: n * seq_len + 1])
        self.seq_len = seq_len

    def __len__(self):
        return (len(self.data) - 1) // self.seq_len

    def __getitem__(self, i):
        s = i * self.seq_len
        chunk = self.data[s: s + self.seq_len + 1]
        return {"input_ids": chunk[:-1], "labels": chunk[1:],
                "attention_mask": torch.ones(self.seq_len, dtype=torch.long)}


def move_to_device(batch: Dict[str, torch.Tensor], device) -> Dict[str, torch.Tensor]:
    return {k: v.to(device, non_blocking=True) for k, v in batch.items()}


def build_loaders(cfg, vocab: Vocab, texts: List[str]):
    split = int(0.9 * len(texts))
    train = LMChunks(texts[:split], vocab, cfg.seq_len)
    val = LMChunks(texts[split:], vocab, cfg.seq_len)
    return (DataLoader(train, batch_size=cfg.batch_size, shuffle=True, drop_last=True),
            DataLoader(val, batch_size=cfg.batch_size))
