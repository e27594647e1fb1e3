"""Sentence classifier with a padding collate_fn bound through functools.partial, packed LSTM."""
import argparse
import functools
import os
import random

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence
from torch.utils.data import DataLoader

VOCAB = ["<pad>", "<unk>"] + [f"w{i}" for i in range(50)]
STOI = {w: i for i, w in enumerate(VOCAB)}


def make_corpus(n=200, seed=0):
    rnd = random.Random(seed)
    data = []
    for _ in range(n):
        label = rnd.randrange(2)
        length = rnd.randint(3, 12)
        words = [f"w{rnd.randrange(25) + 25 * label}" for _ in range(length)]
        data.append((" ".join(words), label))
    return data


def collate(batch, stoi, max_len, pad_idx=0):
    texts, labels = zip(*batch)
    ids = [[stoi.get(w, 1) for w in t.split()][:max_len] for t in texts]
    lengths = torch.tensor([len(s) for s in ids])
    padded = torch.full((len(ids), int(lengths.max())), pad_idx, dtype=torch.long)
    for i, s in enumerate(ids):
        padded[i, : len(s)] = torch.tensor(s)
    return padded, lengths, torch.tensor(labels)


class LSTMClassifier(nn.Module):
    def __init__(self, vocab_size, emb=32, hidden=64, n_cls=2):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, emb, padding_idx=0)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True)
        self.fc = nn.Linear(hidden, n_cls)

    def forward(self, ids, lengths):
        packed = pack_padded_sequence(self.emb(ids), lengths, batch_first=True, enforce_sorted=False)
        _, (h, _) = self.lstm(packed)
        return self.fc(h[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--max-len", type=int, default=10)
    ap.add_argument("--resume", default="")
    ap.add_argument("--save", default="")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    collate_fn = functools.partial(collate, stoi=STOI, max_len=args.max_len)
    loader = DataLoader(make_corpus(), batch_size=16, shuffle=True, collate_fn=collate_fn)
    model = LSTMClassifier(len(VOCAB)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    loss_fn = nn.CrossEntropyLoss()
    start_epoch = 0
    if args.resume and os.path.exists(args.resume):
        ckpt = torch.load(args.resume, map_location=device)
        model.load_state_dict(ckpt["model"])
        opt.load_state_dict(ckpt["opt"])
        start_epoch = ckpt["epoch"] + 1

    for epoch in range(start_epoch, start_epoch + args.epochs):
        model.train()
        correct = total = 0
        for ids, lengths, labels in loader:
            ids, labels = ids.to(device), labels.to(device)
            logits = model(ids, lengths)  # lengths stay on the CPU for pack_padded_sequence
            loss = loss_fn(logits, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
            correct += (logits.argmax(1) == labels).sum().item()
            total += labels.numel()
        print(f"epoch {epoch} loss {loss.item():.3f} acc {correct / total:.3f}")
    if args.save:
        torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "epoch": epoch}, args.save)


if __name__ == "__main__":
    main()
