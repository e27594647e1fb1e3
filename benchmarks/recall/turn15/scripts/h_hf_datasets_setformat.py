"""Review sentiment with a bag-of-embeddings classifier on a `datasets.Dataset`.

Tokenisation is done with .map(); set_format("torch") hands tensors to the DataLoader.
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from datasets import Dataset, DatasetDict
from torch.utils.data import DataLoader

POS = "great superb lovely excellent fun moving brilliant enjoyable".split()
NEG = "boring awful dull terrible bad weak messy tedious".split()
FILLER = "the movie plot actors was and a very with film story really it".split()
MAX_LEN = 24


def fake_reviews(n, seed):
    rng = random.Random(seed)
    texts, labels = [], []
    for _ in range(n):
        label = rng.randint(0, 1)
        words = [rng.choice(FILLER) for _ in range(rng.randint(6, 16))]
        for _ in range(rng.randint(1, 3)):
            words.insert(rng.randrange(len(words)), rng.choice(POS if label else NEG))
        texts.append(" ".join(words))
        labels.append(label)
    return {"text": texts, "label": labels}


raw = DatasetDict(train=Dataset.from_dict(fake_reviews(600, 0)),
                  test=Dataset.from_dict(fake_reviews(150, 1)))
vocab = {"[PAD]": 0, "[UNK]": 1}
for text in raw["train"]["text"]:
    for w in text.split():
        vocab.setdefault(w, len(vocab))


def tokenize(batch):
    ids, masks = [], []
    for text in batch["text"]:
        toks = [vocab.get(w, 1) for w in text.split()][:MAX_LEN]
        ids.append(toks + [0] * (MAX_LEN - len(toks)))
        masks.append([1] * len(toks) + [0] * (MAX_LEN - len(toks)))
    return {"input_ids": ids, "attention_mask": masks}


encoded = raw.map(tokenize, batched=True, remove_columns=["text"])
encoded.set_format(type="torch", columns=["input_ids", "attention_mask", "label"])


class MeanPoolClassifier(nn.Module):
    def __init__(self, vocab_size, dim=64, n_classes=2):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.ff = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Dropout(0.1), nn.Linear(dim, n_classes))

    def forward(self, input_ids, attention_mask):
        m = attention_mask.unsqueeze(-1).float()
        pooled = (self.emb(input_ids) * m).sum(1) / m.sum(1).clamp(min=1)
        return self.ff(pooled)


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    correct = total = 0
    for batch in loader:
        logits = model(batch["input_ids"], batch["attention_mask"])  # expect: DEV002
        correct += (logits.argmax(-1).cpu() == batch["label"]).sum().item()
        total += batch["label"].numel()
    return correct / total


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_loader = DataLoader(encoded["train"], batch_size=32, shuffle=True)
    test_loader = DataLoader(encoded["test"], batch_size=64)

    model = MeanPoolClassifier(len(vocab)).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-3)

    for epoch in range(4):
        model.train()
        for batch in train_loader:
            input_ids = batch["input_ids"].to(device)
            attention_mask = batch["attention_mask"].to(device)
            logits = model(input_ids, attention_mask)
            loss = F.cross_entropy(logits, batch["label"])  # expect: DEV004
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f} test acc {evaluate(model, test_loader):.3f}")


if __name__ == "__main__":
    main()
