"""HF-style fine-tuning loop: the whole dict batch is moved, then the labels are popped from it."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class PairDataset(Dataset):
    def __init__(self, n=24, seq_len=10, vocab=50):
        g = torch.Generator().manual_seed(1)
        self.ids = torch.randint(1, vocab, (n, seq_len), generator=g)
        self.token_type_ids = torch.zeros(n, seq_len, dtype=torch.long)
        self.token_type_ids[:, seq_len // 2:] = 1
        self.labels = torch.randint(0, 3, (n,), generator=g)

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "token_type_ids": self.token_type_ids[i], "labels": self.labels[i]}


class PairClassifier(nn.Module):
    def __init__(self, vocab=50, dim=32, n_labels=3):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.seg = nn.Embedding(2, dim)
        self.gru = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, n_labels)

    def forward(self, input_ids, token_type_ids):
        _, h = self.gru(self.tok(input_ids) + self.seg(token_type_ids))
        return self.head(h[-1])


def train(model, loader, optimizer, device, max_steps=3):
    criterion = nn.CrossEntropyLoss()
    model.train()
    for step, batch in enumerate(loader):
        batch = {k: v.to(device) for k, v in batch.items()}
        labels = batch.pop("labels")
        logits = model(**batch)
        loss = criterion(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")
        if step + 1 >= max_steps:
            break


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = PairClassifier().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    train(model, DataLoader(PairDataset(), batch_size=8, shuffle=True), opt, device)
