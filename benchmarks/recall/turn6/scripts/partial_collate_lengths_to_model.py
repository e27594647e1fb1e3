"""Token classification over variable-length sequences; the collate_fn is bound with
functools.partial to the padding index and also returns the lengths, which the model uses to
mask padded positions."""
from functools import partial

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


def collate(batch, pad_idx):
    seqs, tags = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    T = int(lengths.max())
    ids = torch.full((len(seqs), T), pad_idx, dtype=torch.long)
    labels = torch.full((len(seqs), T), -100, dtype=torch.long)
    for i, (s, t) in enumerate(zip(seqs, tags)):
        ids[i, :len(s)] = torch.tensor(s)
        labels[i, :len(t)] = torch.tensor(t)
    return ids, labels, lengths


class Tagger(nn.Module):
    def __init__(self, vocab=40, dim=32, n_tags=5, pad_idx=0):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=pad_idx)
        self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(dim, 4, 64, batch_first=True), 1)
        self.out = nn.Linear(dim, n_tags)

    def forward(self, ids, lengths):
        pad = torch.arange(ids.size(1), device=ids.device)[None, :] >= lengths[:, None]
        return self.out(self.enc(self.emb(ids), src_key_padding_mask=pad))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    g = torch.Generator().manual_seed(0)
    data = []
    for _ in range(300):
        n = int(torch.randint(3, 12, (1,), generator=g))
        s = torch.randint(1, 40, (n,), generator=g).tolist()
        data.append((s, [w % 5 for w in s]))
    loader = DataLoader(data, batch_size=16, shuffle=True, collate_fn=partial(collate, pad_idx=0))
    model = Tagger().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(2):
        for ids, labels, lengths in loader:
            ids, labels = ids.to(device), labels.to(device)
            logits = model(ids, lengths)  # expect: DEV002
            loss = F.cross_entropy(logits.flatten(0, 1), labels.flatten(), ignore_index=-100)
            opt.zero_grad()
            loss.backward()
            opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
