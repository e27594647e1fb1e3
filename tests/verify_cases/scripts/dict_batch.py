"""Hugging Face-style dict batches from a collate function, moved key by key."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

device = "cuda" if torch.cuda.is_available() else "cpu"


class Tokens(Dataset):
    def __init__(self, n):
        g = torch.Generator().manual_seed(0)
        self.ids = torch.randint(1, 100, (n, 12), generator=g)
        self.labels = torch.randint(0, 2, (n,), generator=g)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "attention_mask": torch.ones(12, dtype=torch.long),
                "labels": self.labels[i]}


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(100, 32)
        self.head = nn.Linear(32, 2)

    def forward(self, input_ids, attention_mask, labels=None):
        hidden = self.embed(input_ids) * attention_mask.unsqueeze(-1)
        logits = self.head(hidden.sum(1) / attention_mask.sum(1, keepdim=True))
        loss = nn.functional.cross_entropy(logits, labels) if labels is not None else None
        return {"loss": loss, "logits": logits}


torch.manual_seed(0)
loader = DataLoader(Tokens(640), batch_size=16, shuffle=True)
model = Classifier().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4)
for epoch in range(3):
    for batch in loader:
        batch = {k: v.to(device) for k, v in batch.items()}
        out = model(**batch)
        optimizer.zero_grad()
        out["loss"].backward()
        optimizer.step()
