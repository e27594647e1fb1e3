"""HF-style dict batches with a string column: tensors moved by a comprehension that skips the strings,
the strings used for logging and a retrieval lookup."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class QADataset(Dataset):
    def __init__(self, n=64):
        self.q = [f"question {i}?" for i in range(n)]
        self.ids = torch.randint(1, 500, (n, 16))
        self.labels = torch.randint(0, 2, (n,))

    def __len__(self):
        return len(self.q)

    def __getitem__(self, i):
        return {"question": self.q[i], "input_ids": self.ids[i], "labels": self.labels[i]}


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(500, 32)
        self.fc = nn.Linear(32, 2)

    def forward(self, input_ids):
        return self.fc(self.emb(input_ids))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Classifier().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for batch in DataLoader(QADataset(), batch_size=8, shuffle=True):
        batch = {k: v.to(device) if isinstance(v, torch.Tensor) else v for k, v in batch.items()}
        logits = model(batch["input_ids"])
        loss = F.cross_entropy(logits, batch["labels"])
        opt.zero_grad()
        loss.backward()
        opt.step()
        hard = [q for q, ok in zip(batch["question"], (logits.argmax(-1) == batch["labels"]).tolist()) if not ok]
        print(f"{loss.item():.3f}", hard[:2])


if __name__ == "__main__":
    main()
