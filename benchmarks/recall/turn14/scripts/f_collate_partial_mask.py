"""Variable-length event sequences -> 3-way label, with a padding collate given through functools.partial."""
from functools import partial

import numpy as np
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
from torch.utils.data import DataLoader, Dataset

PAD = 0
VOCAB = 50
NUM_CLASSES = 3


class EventSequences(Dataset):
    def __init__(self, n=600, seed=0):
        rng = np.random.default_rng(seed)
        self.items = []
        for _ in range(n):
            label = int(rng.choice(NUM_CLASSES, p=[0.6, 0.3, 0.1]))
            length = int(rng.integers(4, 30))
            base = 1 + label * 15
            tokens = rng.integers(base, base + 20, size=length) % (VOCAB - 1) + 1
            self.items.append((torch.from_numpy(tokens).long(), label))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def pad_collate(batch, pad_idx, max_len=None):
    seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    T = int(lengths.max()) if max_len is None else max_len
    tokens = torch.full((len(seqs), T), pad_idx, dtype=torch.long)
    for i, s in enumerate(seqs):
        tokens[i, : len(s)] = s[:T]
    mask = (tokens != pad_idx).float()
    return tokens, lengths.clamp(max=T), mask, torch.tensor(labels)


class GRUClassifier(nn.Module):
    def __init__(self, vocab, emb=32, hidden=64, n_classes=NUM_CLASSES):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=PAD)
        self.gru = nn.GRU(emb, hidden, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(2 * hidden, n_classes)

    def forward(self, tokens, lengths, mask):
        packed = pack_padded_sequence(self.emb(tokens), lengths, batch_first=True, enforce_sorted=False)
        out, _ = self.gru(packed)
        out, _ = pad_packed_sequence(out, batch_first=True, total_length=tokens.size(1))
        pooled = (out * mask.unsqueeze(-1)).sum(1) / mask.sum(1, keepdim=True)
        return self.fc(pooled)


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_set = EventSequences(600, seed=0)
    collate = partial(pad_collate, pad_idx=PAD, max_len=24)
    train_loader = DataLoader(train_set, batch_size=32, shuffle=True, collate_fn=collate)

    train_labels = np.array([label for _, label in train_set.items])
    counts = np.bincount(train_labels, minlength=NUM_CLASSES)
    class_weights = counts.sum() / (NUM_CLASSES * counts)

    model = GRUClassifier(VOCAB).to(device)
    criterion = nn.CrossEntropyLoss(weight=torch.tensor(class_weights, dtype=torch.float32))  # expect: DEV012
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)

    for epoch in range(4):
        model.train()
        total, correct, seen = 0.0, 0, 0
        for tokens, lengths, mask, labels in train_loader:
            tokens, labels = tokens.to(device), labels.to(device)
            logits = model(tokens, lengths, mask)  # expect: DEV002
            loss = criterion(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * labels.size(0)
            correct += (logits.argmax(1) == labels).sum().item()
            seen += labels.size(0)
        print(f"epoch {epoch}  loss {total / seen:.4f}  acc {correct / seen:.3f}")


if __name__ == "__main__":
    main()
