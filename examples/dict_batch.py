"""A model whose batches are dicts (the Hugging Face shape): every value is moved."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class TokenDataset(Dataset):
    def __init__(self, size: int = 512, length: int = 12, vocab: int = 50):
        self.ids = torch.randint(0, vocab, (size, length))
        self.mask = (torch.rand(size, length) > 0.1).long()
        self.labels = (self.ids[:, 0] % 2)

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "attention_mask": self.mask[i], "labels": self.labels[i]}


class BagOfEmbeddings(nn.Module):
    def __init__(self, vocab: int = 50, dim: int = 32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.classify = nn.Linear(dim, 2)

    def forward(self, input_ids, attention_mask, labels=None):
        mask = attention_mask.unsqueeze(-1).float()
        pooled = (self.embed(input_ids) * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        logits = self.classify(pooled)
        loss = nn.functional.cross_entropy(logits, labels) if labels is not None else None
        return loss, logits


loader = DataLoader(TokenDataset(), batch_size=32, shuffle=True)
model = BagOfEmbeddings().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)

for epoch in range(2):
    for batch in loader:
        batch = {k: v.to(device) for k, v in batch.items()}
        loss, _ = model(**batch)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        print(f"loss {loss.item():.6f}")
