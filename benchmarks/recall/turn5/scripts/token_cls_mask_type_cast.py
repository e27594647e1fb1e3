"""Named-entity tagging with a BiLSTM; padded positions are masked out of the token loss with a
float mask."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

PAD_TAG = -100


class BiLSTMTagger(nn.Module):
    def __init__(self, vocab=5000, tags=9, d=100, hidden=128):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.lstm = nn.LSTM(d, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, tags)

    def forward(self, ids):
        h, _ = self.lstm(self.emb(ids))
        return self.out(h)


def synthetic(n=2000, t=40, vocab=5000, tags=9):
    ids = torch.randint(1, vocab, (n, t))
    lengths = torch.randint(5, t + 1, (n,))
    pad = torch.arange(t)[None] >= lengths[:, None]
    ids[pad] = 0
    tag = ids % tags
    tag[pad] = PAD_TAG
    return TensorDataset(ids, tag)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loader = DataLoader(synthetic(), batch_size=32, shuffle=True)
    model = BiLSTMTagger().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        for ids, tags in loader:
            ids, tags = ids.to(device), tags.to(device)
            logits = model(ids)
            mask = (tags != PAD_TAG).type(torch.FloatTensor)  # expect: DEV021
            per_tok = F.cross_entropy(logits.transpose(1, 2), tags.clamp(min=0), reduction="none")
            loss = (per_tok * mask).sum() / mask.sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
