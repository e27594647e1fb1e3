"""Character-level GRU sentiment classifier; the collate_fn is bound with functools.partial.

Written from "Dataloader convert to cuda" (pytorch/pytorch#40985, moving batches
to the GPU inside a custom collate_fn), "Fix device mismatch issue in #1071"
(pytorch/examples#1073, images moved but the target left on the CPU) and
"Attempting to deserialize object on a CUDA device but
torch.cuda.is_available() is False" (keunsoo-ko/CMT#1): the collate function
moves the token ids to the device it was given but builds the labels on the
CPU, and a resumed checkpoint is loaded without map_location.
"""
import argparse
import functools
import random

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence
from torch.utils.data import DataLoader

POS = ["great movie", "loved it", "what a joy", "superb acting", "fun and warm", "a delight"]
NEG = ["awful plot", "hated it", "so boring", "bad acting", "a total mess", "dull and slow"]
VOCAB = {ch: i + 1 for i, ch in enumerate(sorted(set("".join(POS + NEG))))}
PAD = 0


def encode(text):
    return [VOCAB[ch] for ch in text]


def pad_collate(batch, pad_id, device):
    seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    ids = torch.full((len(seqs), int(lengths.max())), pad_id, dtype=torch.long)
    for i, s in enumerate(seqs):
        ids[i, : len(s)] = torch.tensor(s)
    return ids.to(device), lengths, torch.tensor(labels)


class CharGRU(nn.Module):
    def __init__(self, vocab_size, emb=32, hidden=64):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, emb, padding_idx=PAD)
        self.gru = nn.GRU(emb, hidden, batch_first=True)
        self.fc = nn.Linear(hidden, 2)

    def forward(self, ids, lengths):
        packed = pack_padded_sequence(self.emb(ids), lengths, batch_first=True, enforce_sorted=False)
        _, h = self.gru(packed)
        return self.fc(h[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=15)
    parser.add_argument("--resume", default=None, help="checkpoint from an earlier run")
    parser.add_argument("--save", default="char_gru.pt")
    args = parser.parse_args()

    random.seed(0)
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    data = [(encode(t), 1) for t in POS] + [(encode(t), 0) for t in NEG]
    collate = functools.partial(pad_collate, pad_id=PAD, device=device)
    loader = DataLoader(data, batch_size=4, shuffle=True, collate_fn=collate)

    model = CharGRU(len(VOCAB) + 1).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    criterion = nn.CrossEntropyLoss()
    start = 0
    if args.resume:
        state = torch.load(args.resume)  # expect: DEV008
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        start = state["epoch"] + 1

    for epoch in range(start, start + args.epochs):
        model.train()
        correct = 0
        for ids, lengths, labels in loader:
            logits = model(ids, lengths)
            loss = criterion(logits, labels)  # expect: DEV004
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            correct += (logits.argmax(dim=1).cpu() == labels).sum().item()
        print(f"epoch {epoch} loss {loss.item():.3f} train acc {correct / len(data):.2f}")

    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, args.save)


if __name__ == "__main__":
    main()
