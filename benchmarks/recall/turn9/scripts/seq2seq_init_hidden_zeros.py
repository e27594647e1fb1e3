"""Character-level seq2seq: the encoder's hidden state comes from an init_hidden helper called in the
training loop.

Thread: https://github.com/Lightning-AI/pytorch-lightning/issues/3738 (Input and hidden tensors are
not at the same device: hidden and cell initialised with torch.zeros).
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Encoder(nn.Module):
    def __init__(self, vocab, emb, hid, layers=2):
        super().__init__()
        self.layers, self.hid = layers, hid
        self.emb = nn.Embedding(vocab, emb)
        self.rnn = nn.LSTM(emb, hid, layers, batch_first=True)

    def init_hidden(self, batch_size):
        h = torch.zeros(self.layers, batch_size, self.hid)  # expect: DEV006
        c = torch.zeros(self.layers, batch_size, self.hid)  # also: DEV006
        return h, c

    def forward(self, src, hidden):
        return self.rnn(self.emb(src), hidden)


class Decoder(nn.Module):
    def __init__(self, vocab, emb, hid, layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.rnn = nn.LSTM(emb, hid, layers, batch_first=True)
        self.out = nn.Linear(hid, vocab)

    def forward(self, tgt, hidden):
        out, hidden = self.rnn(self.emb(tgt), hidden)
        return self.out(out), hidden


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    enc, dec = Encoder(40, 16, 32).to(device), Decoder(40, 16, 32).to(device)
    opt = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=1e-3)
    ds = TensorDataset(torch.randint(0, 40, (64, 12)), torch.randint(0, 40, (64, 10)))
    for src, tgt in DataLoader(ds, batch_size=16):
        src, tgt = src.to(device), tgt.to(device)
        hidden = enc.init_hidden(src.size(0))
        _, hidden = enc(src, hidden)
        logits, _ = dec(tgt[:, :-1], hidden)
        loss = nn.functional.cross_entropy(logits.reshape(-1, 40), tgt[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
