"""Two-domain training: source and target loaders zipped, batches padded in a partial collate."""
import argparse
from functools import partial

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence
from torch.utils.data import DataLoader


def make_split(n, vocab, seed):
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(n):
        L = int(torch.randint(2, 12, (1,), generator=g))
        out.append((torch.randint(1, vocab, (L,), generator=g), int(torch.randint(0, 2, (1,), generator=g))))
    return out


def collate(batch, pad_id, device):
    seqs, labels = zip(*batch)
    ids = pad_sequence(seqs, batch_first=True, padding_value=pad_id)
    lengths = torch.tensor([len(s) for s in seqs])  # pack_padded_sequence wants these on the CPU
    return ids.to(device), lengths, torch.tensor(labels, device=device)


class Encoder(nn.Module):
    def __init__(self, vocab, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.lstm = nn.LSTM(dim, dim, batch_first=True)
        self.cls = nn.Linear(dim, 2)
        self.dom = nn.Linear(dim, 2)

    def forward(self, ids, lengths):
        packed = pack_padded_sequence(self.emb(ids), lengths, batch_first=True, enforce_sorted=False)
        _, (h, _) = self.lstm(packed)
        return self.cls(h[-1]), self.dom(h[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cpu", action="store_true")
    ap.add_argument("--epochs", type=int, default=2)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and not args.cpu else "cpu")
    vocab = 40
    col = partial(collate, pad_id=0, device=device)
    src = DataLoader(make_split(96, vocab, 0), batch_size=16, shuffle=True, collate_fn=col)
    tgt = DataLoader(make_split(96, vocab, 1), batch_size=16, shuffle=True, collate_fn=col)
    model = Encoder(vocab).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    ce = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        for (xs, ls, ys), (xt, lt, _) in zip(src, tgt):
            cls_s, dom_s = model(xs, ls)
            _, dom_t = model(xt, lt)
            dom_labels = torch.cat([torch.zeros(len(xs)), torch.ones(len(xt))]).long().to(device)
            loss = ce(cls_s, ys) + 0.1 * ce(torch.cat([dom_s, dom_t]), dom_labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, round(loss.item(), 4))


if __name__ == "__main__":
    main()
