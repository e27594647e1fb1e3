"""GRU text classifier; variable-length batches padded by a collate_fn."""
from functools import partial

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence
from torch.utils.data import DataLoader, Dataset


class ToyText(Dataset):
    def __init__(self, n=200, vocab=50):
        g = torch.Generator().manual_seed(1)
        self.items = []
        for _ in range(n):
            L = int(torch.randint(3, 15, (1,), generator=g))
            ids = torch.randint(1, vocab, (L,), generator=g)
            self.items.append((ids, int(ids.sum() % 2)))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def pad_collate(batch, pad_id=0):
    seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    return {
        "input_ids": pad_sequence(seqs, batch_first=True, padding_value=pad_id),
        "lengths": lengths,
        "labels": torch.tensor(labels),
    }


class GRUClassifier(nn.Module):
    def __init__(self, vocab=50, emb=32, hid=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=0)
        self.gru = nn.GRU(emb, hid, batch_first=True)
        self.out = nn.Linear(hid, 2)

    def forward(self, input_ids, lengths):
        packed = pack_padded_sequence(self.emb(input_ids), lengths, batch_first=True, enforce_sorted=False)
        _, h = self.gru(packed)
        return self.out(h[-1])


def train_epoch(model, loader, criterion, optimizer, device):
    model.train()
    running = 0.0
    for batch in loader:
        input_ids = batch["input_ids"].to(device)
        logits = model(input_ids, batch["lengths"])
        loss = criterion(logits, batch["labels"])  # expect: DEV004
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss.item()
    return running / len(loader)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loader = DataLoader(ToyText(), batch_size=16, shuffle=True, collate_fn=partial(pad_collate, pad_id=0))
    model = GRUClassifier().to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        print(epoch, train_epoch(model, loader, criterion, optimizer, device))
