"""Token classification with a padding collate bound through functools.partial; the collate
moves the token ids to the device, the training loop takes the tags as they come."""
import functools

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


def pad_collate(items, pad_id, device):
    n = max(len(t) for t, _ in items)
    ids = torch.full((len(items), n), pad_id, dtype=torch.long)
    tags = torch.full((len(items), n), -100, dtype=torch.long)
    for i, (t, g) in enumerate(items):
        ids[i, : len(t)] = torch.tensor(t)
        tags[i, : len(g)] = torch.tensor(g)
    return ids.to(device), tags


class Tagger(nn.Module):
    def __init__(self, vocab=60, d=32, n_tags=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.rnn = nn.LSTM(d, d, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * d, n_tags)

    def forward(self, ids):
        return self.out(self.rnn(self.emb(ids))[0])


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    g = torch.Generator().manual_seed(0)
    data = []
    for _ in range(96):
        n = int(torch.randint(3, 9, (1,), generator=g))
        toks = torch.randint(1, 60, (n,), generator=g).tolist()
        data.append((toks, [t % 4 for t in toks]))
    loader = DataLoader(data, batch_size=16, shuffle=True,
                        collate_fn=functools.partial(pad_collate, pad_id=0, device=device))
    model = Tagger().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(2):
        for ids, tags in loader:
            logits = model(ids)
            loss = F.cross_entropy(logits.flatten(0, 1), tags.flatten(), ignore_index=-100)  # expect: DEV004
            opt.zero_grad()
            loss.backward()
            opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
