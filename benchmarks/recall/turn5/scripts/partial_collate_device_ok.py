"""Variable-length batches through a functools.partial collate_fn, device-correct: the padding
mask is built on the ids' device, lengths stay on the CPU for pack_padded_sequence."""
import argparse
from functools import partial

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence
from torch.utils.data import DataLoader


def pad_collate(batch, pad_id):
    seqs = [torch.tensor(s) for s, _ in batch]
    lengths = torch.tensor([len(s) for s in seqs])
    return pad_sequence(seqs, batch_first=True, padding_value=pad_id), lengths, torch.tensor([y for _, y in batch])


class GRUClassifier(nn.Module):
    def __init__(self, vocab=1000, d=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.gru = nn.GRU(d, d, batch_first=True)
        self.out = nn.Linear(2 * d, 2)

    def forward(self, ids, lengths, mask):
        h = self.emb(ids)
        _, last = self.gru(pack_padded_sequence(h, lengths, batch_first=True, enforce_sorted=False))
        mean = (h * mask[..., None]).sum(1) / mask.sum(1, keepdim=True)
        return self.out(torch.cat([last[-1], mean], -1))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    data = [([1 + (i * j) % 997 for j in range(5 + i % 40)], i % 2) for i in range(1000)]
    loader = DataLoader(data, batch_size=32, shuffle=True, collate_fn=partial(pad_collate, pad_id=0))
    model = GRUClassifier().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        for ids, lengths, labels in loader:
            ids, labels = ids.to(device), labels.to(device)
            mask = (torch.arange(ids.size(1), device=ids.device)[None, :] < lengths.to(device)[:, None]).float()
            loss = F.cross_entropy(model(ids, lengths, mask), labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())
