import torch


class WordVocab:
    PAD, UNK = "<pad>", "<unk>"

    def __init__(self, sentences):
        words = sorted({w for s in sentences for w in s.lower().split()})
        self.itos = [self.PAD, self.UNK] + words
        self.stoi = {w: i for i, w in enumerate(self.itos)}

    def __len__(self):
        return len(self.itos)

    @property
    def pad_id(self):
        return 0

    def encode_batch(self, sentences, max_len=None):
        ids = [[self.stoi.get(w, 1) for w in s.lower().split()] for s in sentences]
        T = max_len or max(len(x) for x in ids)
        input_ids = torch.full((len(ids), T), self.pad_id, dtype=torch.long)
        for i, x in enumerate(ids):
            x = x[:T]
            input_ids[i, : len(x)] = torch.tensor(x, dtype=torch.long)
        return input_ids, input_ids.ne(self.pad_id)
