"""Intent classifier: packed GRU + attention pooling, batches built by a partial collate."""
import argparse
from functools import partial

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence
from torch.utils.data import DataLoader


def collate(samples, pad_id, max_len=None):
    seqs = [torch.tensor(s["ids"][:max_len], dtype=torch.long) for s in samples]
    lengths = torch.tensor([len(s) for s in seqs])
    tokens = pad_sequence(seqs, batch_first=True, padding_value=pad_id)
    labels = torch.tensor([s["label"] for s in samples])
    return tokens, lengths, labels


class AttnGRU(nn.Module):
    def __init__(self, vocab, dim=64, n_cls=6):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.gru = nn.GRU(dim, dim, batch_first=True, bidirectional=True)
        self.score = nn.Linear(2 * dim, 1)
        self.cls = nn.Linear(2 * dim, n_cls)

    def forward(self, tokens, lengths):
        packed = pack_padded_sequence(self.emb(tokens), lengths, batch_first=True,
                                      enforce_sorted=False)
        h, _ = pad_packed_sequence(self.gru(packed)[0], batch_first=True,
                                   total_length=tokens.size(1))
        pad_mask = (torch.arange(tokens.size(1), device=tokens.device)[None, :]
                    < lengths.to(tokens.device)[:, None])
        s = self.score(h).squeeze(-1).masked_fill(~pad_mask, float("-inf"))
        pooled = (s.softmax(dim=-1).unsqueeze(-1) * h).sum(dim=1)
        return self.cls(pooled)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--batch-size", type=int, default=16)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    g = torch.Generator().manual_seed(0)
    data = [{"ids": torch.randint(1, 500, (int(torch.randint(3, 20, (1,), generator=g)),),
                                  generator=g).tolist(),
             "label": i % 6} for i in range(200)]
    loader = DataLoader(data, batch_size=args.batch_size, shuffle=True,
                        collate_fn=partial(collate, pad_id=0, max_len=64),
                        pin_memory=torch.cuda.is_available())

    model = AttnGRU(vocab=500).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(args.epochs):
        total = 0.0
        for tokens, lengths, labels in loader:
            # lengths stay on the CPU for pack_padded_sequence
            tokens, labels = tokens.to(device), labels.to(device)
            logits = model(tokens, lengths)
            loss = F.cross_entropy(logits, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch}: {total / len(loader):.3f}")


if __name__ == "__main__":
    main()
