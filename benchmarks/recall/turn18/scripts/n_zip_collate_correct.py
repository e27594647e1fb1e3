"""Multi-task GRU: sentiment (task A) and topic (task B) loaders zipped, padding via a partial collate_fn."""
import functools
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence
from torch.utils.data import DataLoader


def toy_corpus(n, n_labels, vocab=80, seed=0):
    random.seed(seed)
    return [([random.randint(1, vocab - 1) for _ in range(random.randint(2, 15))],
             random.randrange(n_labels)) for _ in range(n)]


def pad_collate(batch, pad_id=0, max_len=None):
    seqs = [torch.tensor(s[:max_len] if max_len else s) for s, _ in batch]
    lengths = torch.tensor([len(s) for s in seqs])
    labels = torch.tensor([y for _, y in batch])
    return pad_sequence(seqs, batch_first=True, padding_value=pad_id), lengths, labels


class SharedEncoder(nn.Module):
    def __init__(self, vocab=80, emb=32, hidden=48):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=0)
        self.gru = nn.GRU(emb, hidden, batch_first=True)

    def forward(self, tokens, lengths):
        packed = pack_padded_sequence(self.emb(tokens), lengths, batch_first=True, enforce_sorted=False)
        _, h = self.gru(packed)
        return h[-1]


class MultiTask(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = SharedEncoder()
        self.head_a = nn.Linear(48, 2)
        self.head_b = nn.Linear(48, 6)

    def forward(self, tokens, lengths, task):
        h = self.enc(tokens, lengths)
        return self.head_a(h) if task == "a" else self.head_b(h)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    collate = functools.partial(pad_collate, pad_id=0, max_len=12)
    loader_a = DataLoader(toy_corpus(160, 2), batch_size=16, shuffle=True, collate_fn=collate)
    loader_b = DataLoader(toy_corpus(160, 6, seed=1), batch_size=16, shuffle=True, collate_fn=collate)
    model = MultiTask().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)

    for epoch in range(3):
        for (tok_a, len_a, y_a), (tok_b, len_b, y_b) in zip(loader_a, loader_b):
            tok_a, y_a = tok_a.to(device), y_a.to(device)
            tok_b, y_b = tok_b.to(device), y_b.to(device)
            # lengths stay on the CPU: pack_padded_sequence wants them there
            loss = (F.cross_entropy(model(tok_a, len_a, "a"), y_a)
                    + F.cross_entropy(model(tok_b, len_b, "b"), y_b))
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
