# Token-tagging BiLSTM. Before training, print one batch and check that the
# model output has the expected shape (habit from debugging the collate fn).
import argparse

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, Dataset

PAD, N_TAGS = 0, 6


class TagSet(Dataset):
    def __init__(self, n, vocab=300, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.items = []
        for _ in range(n):
            length = int(torch.randint(5, 20, (1,), generator=g))
            ids = torch.randint(1, vocab, (length,), generator=g)
            tags = ids % N_TAGS
            self.items.append((ids, tags))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    ids, tags = zip(*batch)
    ids = pad_sequence(ids, batch_first=True, padding_value=PAD)
    tags = pad_sequence(tags, batch_first=True, padding_value=-100)
    return {"input_ids": ids, "attention_mask": (ids != PAD).long(), "labels": tags}


class Tagger(nn.Module):
    def __init__(self, vocab, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=PAD)
        self.lstm = nn.LSTM(dim, dim, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * dim, N_TAGS)

    def forward(self, input_ids, attention_mask):
        h, _ = self.lstm(self.emb(input_ids))
        h = h * attention_mask.unsqueeze(-1)
        return self.out(h)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = ap.parse_args()
    device = torch.device(args.device)

    train_loader = DataLoader(TagSet(400), batch_size=16, shuffle=True, collate_fn=collate)
    val_loader = DataLoader(TagSet(80, seed=3), batch_size=16, collate_fn=collate)

    model = Tagger(300).to(device)
    criterion = nn.CrossEntropyLoss(ignore_index=-100)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)

    batch = next(iter(train_loader))
    batch = {k: v.to(device) for k, v in batch.items()}  # expect: DEV003
    for k, v in batch.items():
        print(k, tuple(v.shape), v.dtype)
    with torch.no_grad():
        print("logits", tuple(model(batch["input_ids"], batch["attention_mask"]).shape))

    for epoch in range(args.epochs):
        model.train()
        for batch in train_loader:
            logits = model(batch["input_ids"], batch["attention_mask"])  # also: DEV002
            loss = criterion(logits.view(-1, N_TAGS), batch["labels"].view(-1))  # also: DEV004
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        model.eval()
        val_loss, n = 0.0, 0
        with torch.no_grad():
            for batch in val_loader:
                labels = batch.pop("labels")
                batch = {k: v.to(device) for k, v in batch.items()}
                logits = model(**batch)
                val_loss += criterion(logits.view(-1, N_TAGS), labels.view(-1)).item()  # expect: DEV004
                n += 1
        print(f"epoch {epoch} train loss {loss.item():.3f} val loss {val_loss / n:.3f}")


if __name__ == "__main__":
    main()
