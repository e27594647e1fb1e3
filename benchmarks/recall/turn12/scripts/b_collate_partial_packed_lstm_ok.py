"""LSTM intent tagger with a partial-bound collate_fn and packed sequences (correct look-alike).

Written from "Suggest: DataLoader add device parameter" (pytorch/pytorch#11372),
"Resolve issue #196: Data module enhancement" (asyml/texar-pytorch#213, moving
device transfers out of collate) and "Attempting to deserialize object on a
CUDA device" (agaldran/a_v_uncertain#8): the collate function stays on the
CPU, the loop moves ids and labels, the lengths stay on the CPU as
pack_padded_sequence wants, and the checkpoint is loaded with map_location.
"""
import functools
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence
from torch.utils.data import DataLoader

INTENTS = {
    "weather": ["will it rain", "is it sunny today", "weather tomorrow please"],
    "music": ["play some jazz", "next song", "turn the music up"],
    "timer": ["set a timer", "wake me at six", "start a countdown"],
}


class CharVocab:
    def __init__(self, texts):
        self.stoi = {c: i + 2 for i, c in enumerate(sorted(set("".join(texts))))}
        self.pad_id, self.unk_id = 0, 1

    def __call__(self, text):
        return [self.stoi.get(c, self.unk_id) for c in text]


def collate(batch, vocab, max_len):
    ids = [vocab(text)[:max_len] for text, _ in batch]
    lengths = torch.tensor([len(x) for x in ids], dtype=torch.long)
    padded = torch.full((len(ids), int(lengths.max())), vocab.pad_id, dtype=torch.long)
    for i, x in enumerate(ids):
        padded[i, : len(x)] = torch.tensor(x)
    return {"input_ids": padded, "lengths": lengths, "labels": torch.tensor([y for _, y in batch])}


class Tagger(nn.Module):
    def __init__(self, vocab_size, num_labels, emb=24, hidden=48):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, emb, padding_idx=0)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, num_labels)

    def forward(self, input_ids, lengths):
        packed = pack_padded_sequence(self.emb(input_ids), lengths, batch_first=True, enforce_sorted=False)
        _, (h, _) = self.lstm(packed)
        return self.out(torch.cat([h[-2], h[-1]], dim=1))


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    labels = sorted(INTENTS)
    data = [(t, labels.index(k)) for k, ts in INTENTS.items() for t in ts]
    vocab = CharVocab([t for t, _ in data])
    loader = DataLoader(data, batch_size=3, shuffle=True,
                        collate_fn=functools.partial(collate, vocab=vocab, max_len=24))

    model = Tagger(len(vocab.stoi) + 2, len(labels)).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(20):
        model.train()
        for batch in loader:
            input_ids = batch["input_ids"].to(device)
            targets = batch["labels"].to(device)
            logits = model(input_ids, batch["lengths"])
            loss = F.cross_entropy(logits, targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

    path = os.path.join(tempfile.gettempdir(), "intent_tagger.pt")
    torch.save(model.state_dict(), path)
    restored = Tagger(len(vocab.stoi) + 2, len(labels)).to(device)
    restored.load_state_dict(torch.load(path, map_location=device))
    restored.eval()
    batch = collate([("play jazz now", 0), ("rain tomorrow", 0)], vocab, 24)
    with torch.no_grad():
        pred = restored(batch["input_ids"].to(device), batch["lengths"]).argmax(dim=1)
    print([labels[i] for i in pred.tolist()], f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
