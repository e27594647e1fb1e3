"""Fine-tune a small GRU classifier on dict batches (HF-style collator with dynamic
padding): input_ids / attention_mask / labels."""
import random

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class ReviewDataset(Dataset):
    def __init__(self, n=48, vocab=300, seed=0):
        rng = random.Random(seed)
        self.items = []
        for _ in range(n):
            length = rng.randint(4, 14)
            ids = [rng.randint(2, vocab - 1) for _ in range(length)]
            self.items.append({"input_ids": ids, "label": int(sum(ids) % 2)})

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(features, pad_id=0):
    width = max(len(f["input_ids"]) for f in features)
    ids = torch.full((len(features), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(features), width), dtype=torch.long)
    for i, f in enumerate(features):
        ids[i, :len(f["input_ids"])] = torch.tensor(f["input_ids"])
        mask[i, :len(f["input_ids"])] = 1
    return {"input_ids": ids, "attention_mask": mask, "labels": torch.tensor([f["label"] for f in features])}


class GRUClassifier(nn.Module):
    def __init__(self, vocab=300, d=32, n_cls=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.gru = nn.GRU(d, d, batch_first=True)
        self.out = nn.Linear(d, n_cls)

    def forward(self, input_ids, attention_mask):
        h, _ = self.gru(self.emb(input_ids))
        last = attention_mask.sum(1) - 1
        return self.out(h[torch.arange(h.size(0), device=h.device), last])


def main():
    torch.manual_seed(0)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    loader = DataLoader(ReviewDataset(), batch_size=8, shuffle=True, collate_fn=collate)
    model = GRUClassifier().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    loss_fn = nn.CrossEntropyLoss()

    for epoch in range(3):
        model.train()
        total, correct, seen = 0.0, 0, 0
        for batch in loader:
            labels = batch.pop("labels")
            batch = {k: v.to(device) for k, v in batch.items()}
            logits = model(**batch)
            loss = loss_fn(logits, labels)  # expect: DEV004
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * labels.size(0)
            correct += (logits.argmax(-1).cpu() == labels).sum().item()
            seen += labels.size(0)
        print(f"epoch {epoch} loss {total / seen:.4f} acc {correct / seen:.3f}")


if __name__ == "__main__":
    main()
