"""A functools.partial collate done right: ids and tags moved together, lengths kept on the CPU
for pack_padded_sequence (which wants them there)."""
import functools

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
from torch.utils.data import DataLoader


def pad_collate(items, pad_id, device):
    n = max(len(t) for t, _ in items)
    ids = torch.full((len(items), n), pad_id, dtype=torch.long)
    tags = torch.full((len(items), n), -100, dtype=torch.long)
    for i, (t, g) in enumerate(items):
        ids[i, : len(t)] = torch.tensor(t)
        tags[i, : len(g)] = torch.tensor(g)
    lengths = torch.tensor([len(t) for t, _ in items])
    return ids.to(device), tags.to(device), lengths


class Tagger(nn.Module):
    def __init__(self, vocab=60, d=16, n_tags=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.rnn = nn.GRU(d, d, batch_first=True)
        self.out = nn.Linear(d, n_tags)

    def forward(self, ids, lengths):
        packed = pack_padded_sequence(self.emb(ids), lengths, batch_first=True, enforce_sorted=False)
        out, _ = self.rnn(packed)
        out, _ = pad_packed_sequence(out, batch_first=True, total_length=ids.size(1))
        return self.out(out)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    data = [([i % 59 + 1] * (i % 5 + 2), [i % 4] * (i % 5 + 2)) for i in range(64)]
    loader = DataLoader(data, batch_size=16, collate_fn=functools.partial(pad_collate, pad_id=0, device=device))
    model = Tagger().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for ids, tags, lengths in loader:
        loss = F.cross_entropy(model(ids, lengths).flatten(0, 1), tags.flatten(), ignore_index=-100)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
