"""(Correct) Variable-length sequence classifier: padding collate bound with functools.partial,
packed GRU with lengths kept on the CPU, and a mixup-style shuffle indexed with a CPU permutation."""
from functools import partial

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence
from torch.utils.data import DataLoader


def make_dataset(n=48, vocab=30, seed=0):
    g = torch.Generator().manual_seed(seed)
    data = []
    for _ in range(n):
        length = int(torch.randint(3, 12, (1,), generator=g))
        tokens = torch.randint(1, vocab, (length,), generator=g)
        data.append((tokens, int(tokens.float().mean() > vocab / 2)))
    return data


def pad_collate(batch, pad_id, max_len):
    seqs = [tokens[:max_len] for tokens, _ in batch]
    lengths = torch.tensor([len(s) for s in seqs])
    padded = pad_sequence(seqs, batch_first=True, padding_value=pad_id)
    labels = torch.tensor([label for _, label in batch])
    return padded, lengths, labels


class GRUClassifier(nn.Module):
    def __init__(self, vocab=30, emb=16, hidden=24, n_classes=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=0)
        self.gru = nn.GRU(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, n_classes)

    def forward(self, tokens, lengths):
        packed = pack_padded_sequence(self.emb(tokens), lengths, batch_first=True, enforce_sorted=False)
        _, h_n = self.gru(packed)
        return self.out(h_n[-1])


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    collate = partial(pad_collate, pad_id=0, max_len=10)
    loader = DataLoader(make_dataset(), batch_size=8, shuffle=True, collate_fn=collate)
    model = GRUClassifier().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)

    for epoch in range(3):
        for tokens, lengths, labels in loader:
            tokens, labels = tokens.to(device), labels.to(device)
            logits = model(tokens, lengths)
            loss = F.cross_entropy(logits, labels)
            # logit-level mixup with a shuffled copy of the batch
            perm = torch.randperm(tokens.size(0))
            lam = 0.9
            mixed = lam * logits + (1 - lam) * logits[perm]
            loss = loss + 0.1 * F.cross_entropy(mixed, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
