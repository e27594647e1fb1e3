"""Shared text encoder with one classification head per task (topic, sentiment, lang).

Batches are dicts: input_ids plus one label tensor per task.
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

TASKS = {"topic": 5, "sentiment": 3, "lang": 2}


class ToyMultiTaskSet(Dataset):
    def __init__(self, n, vocab=200, seq_len=24, seed=0):
        rnd = random.Random(seed)
        self.rows = []
        for _ in range(n):
            ids = [rnd.randrange(1, vocab) for _ in range(seq_len)]
            self.rows.append({
                "input_ids": torch.tensor(ids),
                "topic": torch.tensor(ids[0] % 5),
                "sentiment": torch.tensor(ids[1] % 3),
                "lang": torch.tensor(int(ids[2] > vocab // 2)),
            })

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return self.rows[i]


class MultiTaskModel(nn.Module):
    def __init__(self, vocab, d_model, tasks):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.encoder = nn.GRU(d_model, d_model, batch_first=True, bidirectional=True)
        self.dropout = nn.Dropout(0.1)
        self.heads = {name: nn.Linear(2 * d_model, n) for name, n in tasks.items()}  # expect: DEV009

    def forward(self, input_ids):
        h, _ = self.encoder(self.embed(input_ids))
        pooled = self.dropout(h.max(dim=1).values)
        return {name: head(pooled) for name, head in self.heads.items()}


def to_device(batch, device):
    for key in batch:
        batch[key].to(device)  # expect: DEV005
    return batch


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    correct = {t: 0 for t in TASKS}
    n = 0
    for batch in loader:
        batch = to_device(batch, device)
        logits = model(batch["input_ids"])  # also: DEV002
        for t in TASKS:
            correct[t] += (logits[t].argmax(-1) == batch[t]).sum().item()
        n += batch["input_ids"].size(0)
    return {t: c / n for t, c in correct.items()}


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_loader = DataLoader(ToyMultiTaskSet(512), batch_size=32, shuffle=True)
    val_loader = DataLoader(ToyMultiTaskSet(128, seed=1), batch_size=64)

    model = MultiTaskModel(vocab=200, d_model=48, tasks=TASKS).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    task_weight = {"topic": 1.0, "sentiment": 1.0, "lang": 0.5}

    for epoch in range(3):
        model.train()
        for batch in train_loader:
            batch = {k: v.to(device) for k, v in batch.items()}
            out = model(batch["input_ids"])
            loss = sum(task_weight[t] * F.cross_entropy(out[t], batch[t]) for t in TASKS)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        accs = evaluate(model, val_loader, device)
        print(f"epoch {epoch} loss {loss.item():.3f} " + " ".join(f"{t}={a:.2f}" for t, a in accs.items()))


if __name__ == "__main__":
    main()
