# Multi-label audio-tag classifier on precomputed embeddings, trained with accelerate.
#   accelerate launch m_accelerate_multilabel_metrics.py --epochs 3
import argparse

import torch
import torch.nn as nn
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.classification import MultilabelF1Score

NUM_TAGS = 8
EMB_DIM = 64


def make_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    feats = torch.randn(n, EMB_DIM, generator=g)
    tags = (feats[:, :NUM_TAGS] > 0.5).long()
    return TensorDataset(feats, tags)


class TagHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(EMB_DIM, 128), nn.GELU(), nn.Dropout(0.1), nn.Linear(128, NUM_TAGS))

    def forward(self, x):
        return self.mlp(x)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--cpu", action="store_true")
    args = parser.parse_args()

    accelerator = Accelerator(cpu=args.cpu)
    train_dl = DataLoader(make_split(256, 0), batch_size=32, shuffle=True)
    eval_dl = DataLoader(make_split(64, 1), batch_size=32)

    model = TagHead()
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    criterion = nn.BCEWithLogitsLoss()
    model, optimizer, train_dl, eval_dl = accelerator.prepare(model, optimizer, train_dl, eval_dl)

    f1 = MultilabelF1Score(num_labels=NUM_TAGS, average="macro")  # expect: DEV019

    for epoch in range(args.epochs):
        model.train()
        for feats, tags in train_dl:
            logits = model(feats)
            targets = tags.type(torch.FloatTensor)  # expect: DEV021
            loss = criterion(logits, targets)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()

        model.eval()
        for feats, tags in eval_dl:
            with torch.no_grad():
                logits = model(feats)
            probs, refs = accelerator.gather_for_metrics((torch.sigmoid(logits), tags))
            f1.update(probs, refs)
        accelerator.print(f"epoch {epoch}: loss {loss.item():.4f} macro-F1 {f1.compute().item():.4f}")
        f1.reset()


if __name__ == "__main__":
    main()
