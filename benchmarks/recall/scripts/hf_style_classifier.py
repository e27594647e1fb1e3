"""Text classification loop in the Hugging Face style: dict batches, model(**batch)."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class ToyTokenizedDataset(Dataset):
    def __init__(self, n=32, seq_len=12, vocab=100, n_labels=2):
        g = torch.Generator().manual_seed(0)
        self.input_ids = torch.randint(1, vocab, (n, seq_len), generator=g)
        self.attention_mask = torch.ones(n, seq_len, dtype=torch.long)
        self.labels = torch.randint(0, n_labels, (n,), generator=g)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.input_ids[i], "attention_mask": self.attention_mask[i], "labels": self.labels[i]}


class TinyEncoderForSequenceClassification(nn.Module):
    def __init__(self, vocab=100, dim=32, n_labels=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(dim, 4, 64, batch_first=True), 1)
        self.classifier = nn.Linear(dim, n_labels)

    def forward(self, input_ids, attention_mask):
        h = self.encoder(self.embed(input_ids), src_key_padding_mask=attention_mask == 0)
        mask = attention_mask.unsqueeze(-1).float()
        pooled = (h * mask).sum(1) / mask.sum(1)
        return {"logits": self.classifier(pooled)}


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loader = DataLoader(ToyTokenizedDataset(), batch_size=8, shuffle=True)
    model = TinyEncoderForSequenceClassification().to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4, weight_decay=0.01)
    loss_fn = nn.CrossEntropyLoss()
    model.train()
    for step, batch in enumerate(loader):
        labels = batch.pop("labels")
        batch = {k: v.to(device) for k, v in batch.items()}
        outputs = model(**batch)
        loss = loss_fn(outputs["logits"], labels)  # expect: DEV004
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if step % 2 == 0:
            print(f"step {step} loss {loss.item():.4f}")
        if step == 2:
            break


if __name__ == "__main__":
    main()
