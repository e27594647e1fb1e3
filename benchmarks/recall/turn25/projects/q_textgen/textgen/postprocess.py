import numpy as np


def decode(ids, vocab):
    """ids: (batch, time) LongTensor of generated ids -> list of strings."""
    arr = ids.numpy()  # expect: DEV011
    table = np.array(list(vocab))
    return ["".join(table[row]) for row in arr]


def encode(text, vocab):
    return [vocab.index(ch) for ch in text if ch in vocab]
