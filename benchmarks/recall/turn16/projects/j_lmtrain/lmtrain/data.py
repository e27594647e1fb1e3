import torch

DEFAULT_TEXT = (
    "To be, or not to be, that is the question: Whether 'tis nobler in the mind to suffer "
    "The slings and arrows of outrageous fortune, Or to take arms against a sea of troubles "
    "And by opposing end them. To die -- to sleep, No more; and by a sleep to say we end "
    "The heart-ache and the thousand natural shocks That flesh is heir to. "
) * 8


class CharVocab:
    def __init__(self, text):
        self.chars = sorted(set(text))
        self.stoi = {c: i for i, c in enumerate(self.chars)}

    def __len__(self):
        return len(self.chars)

    def encode(self, s):
        return [self.stoi[c] for c in s]

    def decode(self, ids):
        return "".join(self.chars[int(i)] for i in ids)


class CharStream:
    """Random contiguous windows from a long encoded text."""

    def __init__(self, text, vocab, block_size, split=0.9):
        data = torch.tensor(vocab.encode(text), dtype=torch.long)
        n = int(len(data) * split)
        self.parts = {"train": data[:n], "val": data[n:]}
        self.block_size = block_size

    def get_batch(self, split, batch_size, device):
        data = self.parts[split]
        ix = torch.randint(len(data) - self.block_size - 1, (batch_size,))
        x = torch.stack([data[i:i + self.block_size] for i in ix])
        y = torch.stack([data[i + 1:i + 1 + self.block_size] for i in ix])
        return x.to(device), y.to(device)
