"""Text-free sequence classifier (GRU over synthetic event sequences) trained
with accelerate: every loader goes through prepare, metrics are gathered,
and an EMA copy of the weights is evaluated alongside.

    accelerate launch i_accelerate_prepared_ok.py --epochs 3
"""
import argparse
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader, Dataset
from torchmetrics.classification import MulticlassF1Score


class EventSequences(Dataset):
    def __init__(self, n, vocab=20, length=16, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randint(1, vocab, (n, length), generator=g)
        # label: which of three "trigger" tokens appears most often
        counts = torch.stack([(self.x == t).sum(1) for t in (3, 7, 11)], 1)
        self.y = counts.argmax(1)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return {"tokens": self.x[i], "label": self.y[i]}


class GRUClassifier(nn.Module):
    def __init__(self, vocab=20, dim=32, classes=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.gru = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, classes)

    def forward(self, tokens):
        _, h = self.gru(self.emb(tokens))
        return self.head(h[-1])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--ema", type=float, default=0.995)
    args = p.parse_args()

    accelerator = Accelerator()
    torch.manual_seed(0)
    train_dl = DataLoader(EventSequences(1024, seed=0), batch_size=64, shuffle=True)
    eval_dl = DataLoader(EventSequences(256, seed=1), batch_size=128)
    model = GRUClassifier()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=3e-3,
                                                    total_steps=args.epochs * len(train_dl))
    model, optimizer, train_dl, eval_dl, scheduler = accelerator.prepare(
        model, optimizer, train_dl, eval_dl, scheduler)
    ema = copy.deepcopy(accelerator.unwrap_model(model)).eval().requires_grad_(False)
    f1 = MulticlassF1Score(num_classes=3, average="macro").to(accelerator.device)
    f1_ema = MulticlassF1Score(num_classes=3, average="macro").to(accelerator.device)

    for epoch in range(args.epochs):
        model.train()
        for batch in train_dl:
            with accelerator.accumulate(model):
                loss = F.cross_entropy(model(batch["tokens"]), batch["label"])
                accelerator.backward(loss)
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
            with torch.no_grad():
                for e, p_ in zip(ema.parameters(), accelerator.unwrap_model(model).parameters()):
                    e.lerp_(p_, 1 - args.ema)

        model.eval()
        all_preds = []
        for batch in eval_dl:
            with torch.no_grad():
                logits = model(batch["tokens"])
                logits_ema = ema(batch["tokens"])
            preds, preds_ema, refs = accelerator.gather_for_metrics(
                (logits.argmax(-1), logits_ema.argmax(-1), batch["label"]))
            f1.update(preds, refs)
            f1_ema.update(preds_ema, refs)
            all_preds.append(preds.cpu().numpy())
        dist = np.bincount(np.concatenate(all_preds), minlength=3)
        accelerator.print(f"epoch {epoch}: f1 {f1.compute().item():.3f}  ema f1 {f1_ema.compute().item():.3f}"
                          f"  pred distribution {dist.tolist()}")
        f1.reset()
        f1_ema.reset()


if __name__ == "__main__":
    main()
