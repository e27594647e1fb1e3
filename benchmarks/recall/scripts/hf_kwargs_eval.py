"""Fine-tuning with an evaluate() helper that reports accuracy on the dev set each epoch."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class ReviewDataset(Dataset):
    def __init__(self, n=24, seq_len=12):
        self.input_ids = torch.randint(1, 90, (n, seq_len))
        self.attention_mask = torch.ones(n, seq_len, dtype=torch.long)
        self.labels = torch.randint(0, 2, (n,))

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.input_ids[i], "attention_mask": self.attention_mask[i], "labels": self.labels[i]}


class ReviewClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.embeddings = nn.Embedding(90, 32)
        self.pooler = nn.Linear(32, 32)
        self.classifier = nn.Linear(32, 2)
        self.loss_fct = nn.CrossEntropyLoss()

    def forward(self, input_ids, attention_mask, labels=None):
        h = self.embeddings(input_ids) * attention_mask.unsqueeze(-1)
        logits = self.classifier(torch.tanh(self.pooler(h.mean(1))))
        loss = self.loss_fct(logits, labels) if labels is not None else None
        return {"loss": loss, "logits": logits}


def evaluate(model, dataloader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for batch in dataloader:
            outputs = model(**batch)  # expect: DEV002
            preds = outputs["logits"].argmax(dim=-1)
            correct += (preds.cpu() == batch["labels"]).sum().item()
            total += len(preds)
    model.train()
    return correct / total


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = ReviewClassifier().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
train_dl = DataLoader(ReviewDataset(), batch_size=8, shuffle=True)
eval_dl = DataLoader(ReviewDataset(n=16), batch_size=8)

for epoch in range(2):
    for batch in train_dl:
        batch = {k: v.to(device) for k, v in batch.items()}
        outputs = model(**batch)
        outputs["loss"].backward()
        optimizer.step()
        optimizer.zero_grad()
    print(f"epoch {epoch} loss {outputs['loss'].item():.4f} dev acc {evaluate(model, eval_dl):.3f}")
