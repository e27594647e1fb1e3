"""accelerate fine-tuning loop where only the training loader goes through
accelerator.prepare; the validation loader is built next to it but iterated raw,
and the gathered predictions go straight to scikit-learn.

Written from "Place evaluation data on device" / "Ensure test data on device
before running model" (the model is on cuda, the eval batch is not) and the
gather_for_metrics threads ("how to use evaluate with accelerate", "Problem with
metrics calculation and dataloader").
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from sklearn.metrics import f1_score
from torch.utils.data import DataLoader, Dataset

VOCAB, SEQ, N_CLASSES = 200, 24, 3


class ToyReviews(Dataset):
    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.ids = torch.randint(1, VOCAB, (n, SEQ), generator=g)
        lengths = torch.randint(8, SEQ + 1, (n,), generator=g)
        self.mask = (torch.arange(SEQ)[None, :] < lengths[:, None]).long()
        self.ids = self.ids * self.mask
        self.labels = self.ids[:, 0] % N_CLASSES

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "attention_mask": self.mask[i], "labels": self.labels[i]}


class BagOfEmbeddings(nn.Module):
    def __init__(self, dim=48):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, dim, padding_idx=0)
        self.ff = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, N_CLASSES))

    def forward(self, input_ids, attention_mask):
        h = self.emb(input_ids)
        m = attention_mask.unsqueeze(-1).to(h.dtype)
        pooled = (h * m).sum(1) / m.sum(1).clamp(min=1.0)
        return self.ff(pooled)


def main():
    accelerator = Accelerator()
    model = BagOfEmbeddings()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    train_loader = DataLoader(ToyReviews(256, seed=0), batch_size=32, shuffle=True)
    val_loader = DataLoader(ToyReviews(64, seed=1), batch_size=32)

    model, optimizer, train_loader = accelerator.prepare(model, optimizer, train_loader)

    for epoch in range(3):
        model.train()
        for batch in train_loader:
            logits = model(batch["input_ids"], batch["attention_mask"])
            loss = F.cross_entropy(logits, batch["labels"])
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()

        model.eval()
        all_preds, all_labels = [], []
        for batch in val_loader:
            with torch.no_grad():
                logits = model(batch["input_ids"], batch["attention_mask"])  # expect: DEV002
            preds, labels = accelerator.gather_for_metrics((logits.argmax(dim=-1), batch["labels"]))
            all_preds.append(preds)
            all_labels.append(labels)
        preds = torch.cat(all_preds)
        labels = torch.cat(all_labels)
        macro_f1 = f1_score(labels.numpy(), preds.numpy(), average="macro")  # expect: DEV011
        accelerator.print(f"epoch {epoch}: loss {loss.item():.3f} val macro-F1 {macro_f1:.3f}")


if __name__ == "__main__":
    main()
