"""accelerate training loop for a small token classifier; evaluation gathers the
predictions of all processes and scores them with NumPy."""
import numpy as np
import torch
import torch.nn as nn
from accelerate import Accelerator
from torch.utils.data import DataLoader, Dataset


class ToyTokens(Dataset):
    def __init__(self, n, seq=16, vocab=200, n_cls=3, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.ids = torch.randint(1, vocab, (n, seq), generator=g)
        self.labels = torch.randint(0, n_cls, (n,), generator=g)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "attention_mask": torch.ones_like(self.ids[i]), "labels": self.labels[i]}


class BagClassifier(nn.Module):
    def __init__(self, vocab=200, d=32, n_cls=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.out = nn.Linear(d, n_cls)

    def forward(self, input_ids, attention_mask, labels=None):
        h = self.emb(input_ids) * attention_mask.unsqueeze(-1)
        logits = self.out(h.sum(1) / attention_mask.sum(1, keepdim=True))
        loss = nn.functional.cross_entropy(logits, labels) if labels is not None else None
        return {"loss": loss, "logits": logits}


def evaluate(accelerator, model, loader):
    model.eval()
    all_preds, all_refs = [], []
    for batch in loader:
        with torch.no_grad():
            outputs = model(**batch)  # expect: DEV002
        preds = outputs["logits"].argmax(-1)
        preds, refs = accelerator.gather_for_metrics((preds, batch["labels"]))
        all_preds.append(preds.numpy())  # expect: DEV011
        all_refs.append(refs.cpu().numpy())
    preds, refs = np.concatenate(all_preds), np.concatenate(all_refs)
    return float((preds == refs).mean())


def main():
    accelerator = Accelerator()
    model = BagClassifier()
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)
    train_dl = DataLoader(ToyTokens(64), batch_size=8, shuffle=True)
    eval_dl = DataLoader(ToyTokens(24, seed=1), batch_size=8)
    scheduler = torch.optim.lr_scheduler.LinearLR(optimizer, 1.0, 0.1, total_iters=16)

    model, optimizer, train_dl, scheduler = accelerator.prepare(model, optimizer, train_dl, scheduler)

    for epoch in range(2):
        model.train()
        for batch in train_dl:
            loss = model(**batch)["loss"]
            accelerator.backward(loss)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
        acc = evaluate(accelerator, model, eval_dl)
        accelerator.print(f"epoch {epoch} loss {loss.item():.4f} eval acc {acc:.3f}")


if __name__ == "__main__":
    main()
