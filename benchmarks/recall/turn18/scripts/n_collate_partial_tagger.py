"""BiLSTM sequence tagger; padding done in a collate_fn configured with functools.partial."""
import functools
import random

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence
from torch.utils.data import DataLoader

PAD_ID, PAD_TAG = 0, -100
VOCAB, N_TAGS = 50, 5


def make_corpus(n=120, seed=0):
    random.seed(seed)
    corpus = []
    for _ in range(n):
        length = random.randint(3, 12)
        tokens = [random.randint(1, VOCAB - 1) for _ in range(length)]
        tags = [t % N_TAGS for t in tokens]
        corpus.append((tokens, tags))
    return corpus


def collate_batch(samples, pad_id, device):
    samples = sorted(samples, key=lambda s: len(s[0]), reverse=True)
    tokens = [torch.tensor(s[0]) for s in samples]
    tags = [torch.tensor(s[1]) for s in samples]
    lengths = torch.tensor([len(t) for t in tokens])  # stays on CPU for packing
    tokens = pad_sequence(tokens, batch_first=True, padding_value=pad_id).to(device)
    tags = pad_sequence(tags, batch_first=True, padding_value=PAD_TAG)
    return tokens, lengths, tags


class Tagger(nn.Module):
    def __init__(self, vocab, n_tags, emb=32, hidden=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=PAD_ID)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, n_tags)

    def forward(self, tokens, lengths):
        packed = pack_padded_sequence(self.emb(tokens), lengths, batch_first=True)
        h, _ = self.lstm(packed)
        h, _ = pad_packed_sequence(h, batch_first=True, total_length=tokens.size(1))
        return self.out(h)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    collate = functools.partial(collate_batch, pad_id=PAD_ID, device=device)
    loader = DataLoader(make_corpus(), batch_size=16, shuffle=True, collate_fn=collate)

    model = Tagger(VOCAB, N_TAGS).to(device)
    criterion = nn.CrossEntropyLoss(ignore_index=PAD_TAG)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)

    for epoch in range(4):
        total, n = 0.0, 0
        for tokens, lengths, tags in loader:
            logits = model(tokens, lengths)
            loss = criterion(logits.reshape(-1, N_TAGS), tags.reshape(-1))  # expect: DEV004
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total, n = total + loss.item(), n + 1
        print(f"epoch {epoch} loss {total / n:.4f}")


if __name__ == "__main__":
    main()
