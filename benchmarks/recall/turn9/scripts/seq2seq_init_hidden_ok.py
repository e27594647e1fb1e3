"""Look-alike of seq2seq_init_hidden_zeros.py: init_hidden takes the device from the module's own
weights, and a teacher-forcing ratio is a plain Python float.

Thread: https://github.com/ndrplz/ConvLSTM_pytorch/pull/10 (made init_hidden create the tensor on the
correct device).
"""
import random

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Encoder(nn.Module):
    def __init__(self, vocab, emb, hid, layers=2):
        super().__init__()
        self.layers, self.hid = layers, hid
        self.emb = nn.Embedding(vocab, emb)
        self.rnn = nn.GRU(emb, hid, layers, batch_first=True)

    def init_hidden(self, batch_size):
        weight = next(self.parameters())
        return weight.new_zeros(self.layers, batch_size, self.hid)

    def forward(self, src):
        return self.rnn(self.emb(src), self.init_hidden(src.size(0)))


class Decoder(nn.Module):
    def __init__(self, vocab, emb, hid, layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.rnn = nn.GRU(emb, hid, layers, batch_first=True)
        self.out = nn.Linear(hid, vocab)

    def forward(self, tok, hidden):
        out, hidden = self.rnn(self.emb(tok), hidden)
        return self.out(out), hidden


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    enc, dec = Encoder(40, 16, 32).to(device), Decoder(40, 16, 32).to(device)
    opt = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=1e-3)
    ds = TensorDataset(torch.randint(0, 40, (64, 12)), torch.randint(0, 40, (64, 6)))
    for src, tgt in DataLoader(ds, batch_size=16):
        src, tgt = src.to(device), tgt.to(device)
        _, hidden = enc(src)
        tok, loss = tgt[:, :1], 0.0
        for t in range(1, tgt.size(1)):
            logits, hidden = dec(tok, hidden)
            loss = loss + nn.functional.cross_entropy(logits[:, -1], tgt[:, t])
            tok = tgt[:, t:t + 1] if random.random() < 0.5 else logits[:, -1:].argmax(-1)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(float(loss))


if __name__ == "__main__":
    main()
