"""Sentence-pair regression (STS-style) with a small transformer encoder and accelerate."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader, Dataset

VOCAB, MAXLEN, PAD = 500, 32, 0


class PairDataset(Dataset):
    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.ids = torch.randint(1, VOCAB, (n, MAXLEN), generator=g)
        lens = torch.randint(8, MAXLEN, (n,), generator=g)
        self.mask = (torch.arange(MAXLEN)[None, :] < lens[:, None]).long()
        self.ids = self.ids * self.mask
        self.score = torch.rand(n, generator=g) * 5

    def __len__(self):
        return len(self.score)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "attention_mask": self.mask[i], "labels": self.score[i]}


class Regressor(nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, d, padding_idx=PAD)
        layer = nn.TransformerEncoderLayer(d, nhead=4, dim_feedforward=128, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, num_layers=2)
        self.out = nn.Linear(d, 1)

    def forward(self, input_ids, attention_mask, labels=None):
        h = self.enc(self.emb(input_ids), src_key_padding_mask=attention_mask == 0)
        m = attention_mask.unsqueeze(-1).float()
        pooled = (h * m).sum(1) / m.sum(1).clamp(min=1.0)
        pred = self.out(pooled).squeeze(-1)
        loss = F.mse_loss(pred, labels) if labels is not None else None
        return {"loss": loss, "pred": pred}


def evaluate(accelerator, model, loader):
    model.eval()
    preds, golds = [], []
    for batch in loader:
        with torch.no_grad():
            out = model(**batch)  # expect: DEV002
        p, g = accelerator.gather_for_metrics((out["pred"], batch["labels"]))
        preds.append(p)
        golds.append(g)
    preds, golds = torch.cat(preds), torch.cat(golds)
    return F.mse_loss(preds, golds).item()


def main(num_epochs=2, lr=3e-4):
    accelerator = Accelerator()
    train_dl = DataLoader(PairDataset(256, 0), batch_size=32, shuffle=True)
    eval_dl = DataLoader(PairDataset(64, 1), batch_size=64)

    model = Regressor()
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    total = num_epochs * math.ceil(len(train_dl))
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: 1 - s / total)

    model, optimizer, train_dl, scheduler = accelerator.prepare(model, optimizer, train_dl, scheduler)

    for epoch in range(num_epochs):
        model.train()
        for batch in train_dl:
            out = model(**batch)
            accelerator.backward(out["loss"])
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
        mse = evaluate(accelerator, model, eval_dl)
        accelerator.print(f"epoch {epoch} eval mse {mse:.3f}")


if __name__ == "__main__":
    main()
