"""Length-based curriculum for a GRU sequence classifier: the admissible
maximum length grows each epoch; padded batches go through
pack_padded_sequence with the lengths kept on the CPU, as PyTorch requires."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence
from torch.utils.data import DataLoader, Dataset, Subset


class ParityLike(Dataset):
    def __init__(self, n=400, max_len=30, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.seqs = []
        for _ in range(n):
            L = int(torch.randint(3, max_len + 1, (1,), generator=g))
            self.seqs.append(torch.randint(1, 10, (L,), generator=g))
        self.labels = [int(s.sum() % 2) for s in self.seqs]

    def __len__(self):
        return len(self.seqs)

    def __getitem__(self, i):
        return self.seqs[i], self.labels[i]


def collate(batch):
    seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    return pad_sequence(seqs, batch_first=True), lengths, torch.tensor(labels)


class GRUClassifier(nn.Module):
    def __init__(self, vocab=10, emb=16, hidden=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=0)
        self.gru = nn.GRU(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, 2)

    def forward(self, tokens, lengths):
        packed = pack_padded_sequence(self.emb(tokens), lengths, batch_first=True, enforce_sorted=False)
        _, h = self.gru(packed)
        return self.out(h[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--start-len", type=int, default=8)
    ap.add_argument("--no-cuda", action="store_true")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")

    ds = ParityLike()
    model = GRUClassifier().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    max_len = args.start_len
    for epoch in range(args.epochs):
        idx = [i for i, s in enumerate(ds.seqs) if len(s) <= max_len]
        loader = DataLoader(Subset(ds, idx), batch_size=32, shuffle=True, collate_fn=collate)
        model.train()
        for tokens, lengths, labels in loader:
            tokens, labels = tokens.to(device), labels.to(device)
            logits = model(tokens, lengths)
            loss = F.cross_entropy(logits, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: max_len={max_len} n={len(idx)} loss={loss.item():.3f}")
        max_len = min(30, max_len * 2)


if __name__ == "__main__":
    main()
