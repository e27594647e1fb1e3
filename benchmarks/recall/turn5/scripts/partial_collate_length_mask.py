"""Sentence classification with variable-length token sequences; the collate_fn is bound with
functools.partial and returns padded ids plus lengths, the padding mask is built in the loop."""
import argparse
from functools import partial

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader


def pad_collate(batch, pad_id, max_len):
    seqs = [torch.tensor(s[:max_len]) for s, _ in batch]
    lengths = torch.tensor([len(s) for s in seqs])
    labels = torch.tensor([y for _, y in batch])
    return pad_sequence(seqs, batch_first=True, padding_value=pad_id), lengths, labels


class MaskedMeanEncoder(nn.Module):
    def __init__(self, vocab, d=64, classes=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.attn = nn.MultiheadAttention(d, 4, batch_first=True)
        self.out = nn.Linear(d, classes)

    def forward(self, ids, mask):
        h = self.emb(ids)
        h, _ = self.attn(h, h, h, key_padding_mask=~mask)
        h = h.masked_fill(~mask[..., None], 0.0)
        return self.out(h.sum(1) / mask.sum(1, keepdim=True))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-len", type=int, default=48)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    g = torch.Generator().manual_seed(0)
    data = [(torch.randint(1, 1000, (int(torch.randint(5, 60, (1,), generator=g)),), generator=g).tolist(), i % 2)
            for i in range(2000)]
    collate = partial(pad_collate, pad_id=0, max_len=args.max_len)
    loader = DataLoader(data, batch_size=32, shuffle=True, collate_fn=collate)
    model = MaskedMeanEncoder(1000).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        for ids, lengths, labels in loader:
            ids, labels = ids.to(device), labels.to(device)
            mask = torch.arange(ids.size(1))[None, :] < lengths[:, None]  # expect: DEV006
            loss = F.cross_entropy(model(ids, mask), labels)  # also: DEV002
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
