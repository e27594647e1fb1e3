"""BiLSTM named-entity tagger with a character CNN; sentences are packed with
pack_padded_sequence, whose lengths stay on the CPU.

Threads: https://github.com/pytorch/pytorch/issues/43227 ('lengths' argument should be a 1D CPU
int64 tensor, but got 1D cuda:0 Long tensor) and https://github.com/yangjianxin1/GPT2-chitchat/issues/8
(Expected object of device type cuda but got device type cpu for argument #3 'index' in call to
_th_index_select).
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
from torch.utils.data import DataLoader

WORDS, CHARS, TAGS, MAXC = 800, 60, 5, 10


def sentence():
    n = random.randint(4, 15)
    words = torch.randint(1, WORDS, (n,))
    chars = torch.randint(1, CHARS, (n, MAXC))
    return words, chars, torch.randint(0, TAGS, (n,))


def collate(batch):
    T = max(w.numel() for w, _, _ in batch)
    words = torch.zeros(len(batch), T, dtype=torch.long)
    chars = torch.zeros(len(batch), T, MAXC, dtype=torch.long)
    tags = torch.full((len(batch), T), -100)
    for i, (w, c, t) in enumerate(batch):
        words[i, :len(w)], chars[i, :len(w)], tags[i, :len(w)] = w, c, t
    lengths = torch.tensor([w.numel() for w, _, _ in batch])
    return words, chars, lengths, tags


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.word_emb = nn.Embedding(WORDS, 50, padding_idx=0)
        self.char_emb = nn.Embedding(CHARS, 16, padding_idx=0)
        self.char_cnn = nn.Conv1d(16, 24, 3, padding=1)
        self.lstm = nn.LSTM(74, 64, batch_first=True, bidirectional=True)
        self.out = nn.Linear(128, TAGS)

    def forward(self, words, chars, lengths):
        B, T, L = chars.shape
        c = self.char_emb(chars.view(B * T, L)).transpose(1, 2)
        c = self.char_cnn(c).max(-1).values.view(B, T, -1)
        h = torch.cat([self.word_emb(words), c], dim=-1)
        packed = pack_padded_sequence(h, lengths, batch_first=True, enforce_sorted=False)
        out, _ = self.lstm(packed)
        out, _ = pad_packed_sequence(out, batch_first=True, total_length=T)
        return self.out(out)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Tagger().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    loader = DataLoader([sentence() for _ in range(200)], batch_size=16, shuffle=True,
                        collate_fn=collate)
    for epoch in range(2):
        for words, chars, lengths, tags in loader:
            words, tags = words.to(device), tags.to(device)
            logits = model(words, chars, lengths)  # expect: DEV002
            loss = F.cross_entropy(logits.flatten(0, 1), tags.flatten(), ignore_index=-100)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: {loss.item():.3f}")


if __name__ == "__main__":
    main()
