"""Correct look-alike: a collate_fn bound with functools.partial moves ids and labels to the
device itself and keeps the lengths on the CPU for pack_padded_sequence, as PyTorch requires."""
from functools import partial

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
from torch.utils.data import DataLoader


def collate(batch, device, pad_idx=0):
    seqs, ys = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    ids = torch.full((len(seqs), int(lengths.max())), pad_idx, dtype=torch.long)
    for i, s in enumerate(seqs):
        ids[i, :len(s)] = torch.tensor(s)
    return ids.to(device), torch.tensor(ys).to(device), lengths


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(30, 24, padding_idx=0)
        self.rnn = nn.GRU(24, 24, batch_first=True)
        self.out = nn.Linear(24, 2)

    def forward(self, ids, lengths):
        packed = pack_padded_sequence(self.emb(ids), lengths, batch_first=True, enforce_sorted=False)
        _, h = self.rnn(packed)
        return self.out(h[-1])


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    data = []
    for i in range(200):
        s = torch.randint(1, 30, (3 + i % 9,)).tolist()
        data.append((s, int(sum(s) % 2)))
    loader = DataLoader(data, batch_size=20, shuffle=True, collate_fn=partial(collate, device=device))
    model = Classifier().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for ids, ys, lengths in loader:
        loss = F.cross_entropy(model(ids, lengths), ys)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
