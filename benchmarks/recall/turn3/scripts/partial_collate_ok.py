"""A collate_fn that moves the padded batch, given to the DataLoader through functools.partial with the device;
the batch also carries the raw strings, which stay Python lists."""
from functools import partial

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


def collate_to_device(batch, vocab, device, pad_id=0):
    texts = [text for text, _ in batch]
    seqs = [[vocab.get(w, 1) for w in text.split()] for text in texts]
    n = max(map(len, seqs))
    ids = torch.tensor([s + [pad_id] * (n - len(s)) for s in seqs], device=device)
    labels = torch.tensor([label for _, label in batch], device=device)
    return {"ids": ids, "mask": ids != pad_id, "labels": labels, "texts": texts}


class MeanPoolClassifier(nn.Module):
    def __init__(self, vocab_size, dim=32, n_classes=2):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.fc = nn.Linear(dim, n_classes)

    def forward(self, ids, mask):
        h = self.emb(ids) * mask.unsqueeze(-1)
        return self.fc(h.sum(1) / mask.sum(1, keepdim=True).clamp(min=1))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    rows = [("good movie really good", 1), ("bad plot", 0), ("great acting", 1), ("boring and bad", 0)] * 32
    vocab = {w: i + 2 for i, w in enumerate(sorted({w for t, _ in rows for w in t.split()}))}
    loader = DataLoader(rows, batch_size=8, shuffle=True, collate_fn=partial(collate_to_device, vocab=vocab, device=device))
    model = MeanPoolClassifier(len(vocab) + 2).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(3):
        for batch in loader:
            logits = model(batch["ids"], batch["mask"])
            loss = F.cross_entropy(logits, batch["labels"])
            opt.zero_grad()
            loss.backward()
            opt.step()
        wrong = [t for t, p, y in zip(batch["texts"], logits.argmax(-1).tolist(), batch["labels"].tolist()) if p != y]
        print(epoch, loss.item(), wrong)


if __name__ == "__main__":
    main()
