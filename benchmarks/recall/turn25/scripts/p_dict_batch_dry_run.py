"""Train a small text regressor on HF-style dict batches. Before training we
push one batch through the model as a dry run, to check shapes and memory.
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class ReviewScores(Dataset):
    def __init__(self, n=200, seq=20, vocab=300, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.ids = torch.randint(1, vocab, (n, seq), generator=g)
        lengths = torch.randint(5, seq + 1, (n,), generator=g)
        self.mask = (torch.arange(seq).unsqueeze(0) < lengths.unsqueeze(1)).long()
        self.ids = self.ids * self.mask
        self.score = (self.ids.float().mean(1) / vocab * 5).clamp(0, 5)

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "attention_mask": self.mask[i], "labels": self.score[i]}


class Regressor(nn.Module):
    def __init__(self, vocab=300, dim=48):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.ff = nn.Sequential(nn.Linear(dim, dim), nn.Tanh(), nn.Linear(dim, 1))

    def forward(self, input_ids, attention_mask, labels=None):
        m = attention_mask.unsqueeze(-1).float()
        pooled = (self.emb(input_ids) * m).sum(1) / m.sum(1)
        pred = self.ff(pooled).squeeze(-1)
        loss = nn.functional.mse_loss(pred, labels) if labels is not None else None
        return {"loss": loss, "pred": pred}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--skip-dry-run", action="store_true")
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    loader = DataLoader(ReviewScores(), batch_size=25, shuffle=True)
    model = Regressor().to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-3)

    batch = next(iter(loader))
    batch = {k: v.to(device) for k, v in batch.items()}  # expect: DEV003
    if not args.skip_dry_run:
        with torch.no_grad():
            out = model(**batch)
        print(f"dry run ok: pred {tuple(out['pred'].shape)}, loss {out['loss'].item():.3f}")

    for epoch in range(args.epochs):
        model.train()
        running = 0.0
        for batch in loader:
            out = model(**batch)  # also: DEV002
            optimizer.zero_grad()
            out["loss"].backward()
            optimizer.step()
            running += out["loss"].item()
        print(f"epoch {epoch}: mse {running / len(loader):.4f}")


if __name__ == "__main__":
    main()
