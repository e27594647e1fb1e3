"""Token classification (NER-style) fine-tuning with accelerate, with a
per-epoch evaluation on a held-out loader and a confusion count at the end.

    accelerate launch p_accelerate_partial_prepare.py --epochs 3
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
from accelerate import Accelerator
from torch.utils.data import DataLoader, Dataset


class ToyNER(Dataset):
    def __init__(self, n, seq_len=16, vocab=200, num_tags=5, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.ids = torch.randint(1, vocab, (n, seq_len), generator=g)
        self.tags = self.ids % num_tags

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "labels": self.tags[i]}


class Tagger(nn.Module):
    def __init__(self, vocab=200, dim=64, num_tags=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * dim, num_tags)

    def forward(self, input_ids, labels=None):
        h, _ = self.rnn(self.emb(input_ids))
        logits = self.out(h)
        loss = None
        if labels is not None:
            loss = nn.functional.cross_entropy(logits.flatten(0, 1), labels.flatten())
        return loss, logits


def evaluate(accelerator, model, loader, num_tags):
    model.eval()
    preds, refs = [], []
    for batch in loader:
        with torch.no_grad():
            _, logits = model(batch["input_ids"])  # expect: DEV002
        p, r = accelerator.gather_for_metrics((logits.argmax(-1), batch["labels"]))
        preds.append(p)
        refs.append(r)
    preds = torch.cat(preds).flatten()
    refs = torch.cat(refs).flatten()
    confusion = np.zeros((num_tags, num_tags), dtype=np.int64)
    np.add.at(confusion, (refs.cpu().numpy(), preds.numpy()), 1)  # expect: DEV011
    return confusion


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--batch-size", type=int, default=16)
    args = parser.parse_args()

    accelerator = Accelerator()
    num_tags = 5
    train_loader = DataLoader(ToyNER(128), batch_size=args.batch_size, shuffle=True)
    eval_loader = DataLoader(ToyNER(48, seed=1), batch_size=args.batch_size)

    model = Tagger(num_tags=num_tags)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    model, optimizer, train_loader = accelerator.prepare(model, optimizer, train_loader)

    for epoch in range(args.epochs):
        model.train()
        for batch in train_loader:
            loss, _ = model(**batch)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        confusion = evaluate(accelerator, model, eval_loader, num_tags)
        acc = np.trace(confusion) / confusion.sum()
        accelerator.print(f"epoch {epoch}: loss {loss.item():.4f} token acc {acc:.3f}")

    accelerator.wait_for_everyone()
    unwrapped = accelerator.unwrap_model(model)
    accelerator.save(unwrapped.state_dict(), "tagger.pt")


if __name__ == "__main__":
    main()
