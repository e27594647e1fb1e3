"""Character-level name classifier (name -> language) with a padding collate
function configured through functools.partial. The collate does the padding,
the attention mask and the move to the device in one place.
"""
import argparse
import functools
import random

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

LANGS = ["en", "de", "it", "pl"]
SUFFIXES = {"en": "son", "de": "mann", "it": "ini", "pl": "ski"}


def make_names(n, seed=0):
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        lang = rng.choice(LANGS)
        stem = "".join(rng.choice("abcdefghijklmnoprstuvwz") for _ in range(rng.randint(2, 6)))
        rows.append((stem + SUFFIXES[lang], LANGS.index(lang)))
    return rows


def encode(name, max_len):
    return [min(ord(c) - 96, 27) for c in name[:max_len]]


def pad_collate(rows, pad_id, max_len, device):
    ids = [encode(name, max_len) for name, _ in rows]
    width = max(len(i) for i in ids)
    input_ids = torch.full((len(rows), width), pad_id, dtype=torch.long)
    for r, seq in enumerate(ids):
        input_ids[r, : len(seq)] = torch.tensor(seq)
    attention_mask = (input_ids != pad_id).long()
    labels = torch.tensor([lab for _, lab in rows])
    return {
        "input_ids": input_ids.to(device),
        "attention_mask": attention_mask.to(device),
        "labels": labels,
    }


class NameClassifier(nn.Module):
    def __init__(self, vocab=28, dim=32, num_classes=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.conv = nn.Conv1d(dim, dim, 3, padding=1)
        self.out = nn.Linear(dim, num_classes)

    def forward(self, input_ids, attention_mask):
        h = self.conv(self.emb(input_ids).transpose(1, 2)).relu().transpose(1, 2)
        h = h.masked_fill(attention_mask.unsqueeze(-1) == 0, -1e4)
        return self.out(h.max(dim=1).values)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--max-len", type=int, default=12)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    collate = functools.partial(pad_collate, pad_id=0, max_len=args.max_len, device=device)
    train = DataLoader(make_names(400), batch_size=32, shuffle=True, collate_fn=collate)
    valid = DataLoader(make_names(100, seed=1), batch_size=50, collate_fn=collate)

    model = NameClassifier().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    criterion = nn.CrossEntropyLoss()

    for epoch in range(args.epochs):
        model.train()
        for batch in train:
            logits = model(batch["input_ids"], batch["attention_mask"])
            loss = criterion(logits, batch["labels"])  # expect: DEV004
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        model.eval()
        correct = total = 0
        with torch.no_grad():
            for batch in valid:
                pred = model(batch["input_ids"], batch["attention_mask"]).argmax(1)
                correct += (pred.cpu() == batch["labels"]).sum().item()
                total += len(pred)
        print(f"epoch {epoch}: loss {loss.item():.3f} val acc {correct / total:.3f}")


if __name__ == "__main__":
    main()
