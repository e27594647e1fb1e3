"""Sentence classification with variable-length token sequences: padding collate given to
the DataLoader through functools.partial, packed LSTM, masked mean pooling."""
import argparse
import functools

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence
from torch.utils.data import DataLoader, Dataset

PAD = 0


class ToySentences(Dataset):
    """Label = whether token 7 appears in the sequence."""

    def __init__(self, n=400, vocab=50, seed=0):
        g = torch.Generator().manual_seed(seed)
        lengths = torch.randint(3, 15, (n,), generator=g)
        self.seqs = [torch.randint(1, vocab, (int(l),), generator=g) for l in lengths]
        self.labels = [int((s == 7).any()) for s in self.seqs]

    def __len__(self):
        return len(self.seqs)

    def __getitem__(self, i):
        return self.seqs[i], self.labels[i]


def pad_collate(batch, pad_id, device):
    """Pads and moves tokens and labels; lengths stay on the CPU for pack_padded_sequence."""
    seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    tokens = pad_sequence(seqs, batch_first=True, padding_value=pad_id)
    return tokens.to(device), lengths, torch.tensor(labels, device=device)


class LSTMClassifier(nn.Module):
    def __init__(self, vocab, emb=32, hidden=64, n_classes=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=PAD)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True, bidirectional=True)
        self.head = nn.Linear(2 * hidden, n_classes)

    def forward(self, tokens, lengths):
        packed = pack_padded_sequence(self.emb(tokens), lengths, batch_first=True, enforce_sorted=False)
        out, _ = pad_packed_sequence(self.lstm(packed)[0], batch_first=True)
        mask = torch.arange(out.size(1), device=out.device)[None, :] < lengths.to(out.device)[:, None]
        pooled = (out * mask.unsqueeze(-1)).sum(1) / lengths[:, None].to(out.dtype).to(out.device)
        return self.head(pooled)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    collate = functools.partial(pad_collate, pad_id=PAD, device=device)
    loader = DataLoader(ToySentences(), batch_size=args.batch_size, shuffle=True, collate_fn=collate)
    model = LSTMClassifier(vocab=50).to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(args.epochs):
        correct = total = 0
        for tokens, lengths, labels in loader:
            logits = model(tokens, lengths)
            loss = criterion(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            correct += (logits.argmax(1).cpu() == labels.cpu()).sum().item()
            total += labels.size(0)
        print(f"epoch {epoch} loss {loss.item():.3f} acc {correct / total:.3f}")


if __name__ == "__main__":
    main()
