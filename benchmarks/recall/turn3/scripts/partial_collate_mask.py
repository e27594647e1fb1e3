"""Variable-length sequence tagging with a padding collate_fn configured through functools.partial."""
from functools import partial

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


def pad_collate(batch, pad_id=0, label_pad=-100):
    lengths = [len(tokens) for tokens, _ in batch]
    n = max(lengths)
    ids = torch.full((len(batch), n), pad_id, dtype=torch.long)
    tags = torch.full((len(batch), n), label_pad, dtype=torch.long)
    for i, (tokens, labels) in enumerate(batch):
        ids[i, : len(tokens)] = torch.tensor(tokens)
        tags[i, : len(labels)] = torch.tensor(labels)
    return ids, ids != pad_id, tags


class Tagger(nn.Module):
    def __init__(self, vocab=1000, dim=64, n_tags=9):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(dim, 4, 128, batch_first=True), 2)
        self.out = nn.Linear(dim, n_tags)

    def forward(self, ids, mask):
        return self.out(self.enc(self.emb(ids), src_key_padding_mask=~mask))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    g = torch.Generator().manual_seed(0)
    data = []
    for _ in range(200):
        n = int(torch.randint(3, 20, (1,), generator=g))
        data.append((torch.randint(1, 1000, (n,), generator=g).tolist(), torch.randint(0, 9, (n,), generator=g).tolist()))
    loader = DataLoader(data, batch_size=16, shuffle=True, collate_fn=partial(pad_collate, pad_id=0))
    model = Tagger().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for epoch in range(3):
        for ids, mask, tags in loader:
            ids, tags = ids.to(device), tags.to(device)
            logits = model(ids, mask)  # expect: DEV002
            loss = F.cross_entropy(logits.flatten(0, 1), tags.flatten(), ignore_index=-100)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
