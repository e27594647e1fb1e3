"""Bidirectional LSTM over padded reviews with pack_padded_sequence; lengths stay on the CPU on purpose."""
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence
from torch.utils.data import DataLoader

VOCAB, PAD = 60, 0


def collate(batch):
    seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs], dtype=torch.long)
    return pad_sequence(seqs, batch_first=True, padding_value=PAD), lengths, torch.tensor(labels, dtype=torch.float)


class SentimentLSTM(nn.Module):
    def __init__(self, emb=16, hidden=24):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, emb, padding_idx=PAD)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(hidden * 2, 1)

    def forward(self, text, lengths):
        packed = pack_padded_sequence(self.embedding(text), lengths, batch_first=True, enforce_sorted=False)
        packed_out, (hidden, _) = self.lstm(packed)
        _, _ = pad_packed_sequence(packed_out, batch_first=True)
        return self.fc(torch.cat([hidden[-2], hidden[-1]], dim=1)).squeeze(1)


g = torch.Generator().manual_seed(0)
data = [(torch.randint(1, VOCAB, (int(torch.randint(3, 12, (1,), generator=g)),), generator=g), i % 2) for i in range(24)]
loader = DataLoader(data, batch_size=8, shuffle=True, collate_fn=collate)

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = SentimentLSTM().to(device)
criterion = nn.BCEWithLogitsLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(1):
    epoch_loss, epoch_acc = 0.0, 0.0
    for text, lengths, labels in loader:
        text, labels = text.to(device), labels.to(device)
        optimizer.zero_grad()
        predictions = model(text, lengths)
        loss = criterion(predictions, labels)
        loss.backward()
        optimizer.step()
        epoch_loss += loss.item()
        epoch_acc += ((torch.sigmoid(predictions) > 0.5).float() == labels).float().mean().item()
    print(f"epoch {epoch} loss {epoch_loss / len(loader):.4f} acc {epoch_acc / len(loader):.3f}")
