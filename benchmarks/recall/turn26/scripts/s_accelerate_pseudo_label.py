"""Self-training with accelerate: train on labelled data, then on confident pseudo-labels."""
import argparse

import torch
import torch.nn as nn
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def make_data(n, d=16, k=3, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, d, generator=g)
    y = (x[:, :k].argmax(dim=1))
    return x, y


class MLP(nn.Module):
    def __init__(self, d=16, h=64, k=3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, h), nn.GELU(), nn.Linear(h, k))

    def forward(self, x):
        return self.net(x)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--threshold", type=float, default=0.8)
    ap.add_argument("--mixed_precision", default="no")
    args = ap.parse_args()

    accelerator = Accelerator(mixed_precision=args.mixed_precision)
    xl, yl = make_data(256)
    xu, _ = make_data(512, seed=1)
    labelled = DataLoader(TensorDataset(xl, yl), batch_size=32, shuffle=True)
    unlabelled = DataLoader(TensorDataset(xu), batch_size=64)

    model = MLP()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    counts = torch.bincount(yl, minlength=3).float()
    criterion = nn.CrossEntropyLoss(weight=counts.sum() / (3 * counts))  # expect: DEV012
    model, optimizer, labelled = accelerator.prepare(model, optimizer, labelled)

    for epoch in range(args.epochs):
        model.train()
        for x, y in labelled:
            with accelerator.autocast():
                loss = criterion(model(x), y)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()

        # pseudo-label the unlabelled pool and train on the confident part
        model.eval()
        kept_x, kept_y = [], []
        with torch.no_grad():
            for (xb,) in unlabelled:
                probs = model(xb).softmax(dim=-1)  # expect: DEV002
                conf, pred = probs.max(dim=-1)
                keep = conf > args.threshold
                kept_x.append(xb[keep])
                kept_y.append(pred[keep])
        model.train()
        if kept_x:
            px, py = torch.cat(kept_x), torch.cat(kept_y)
            for i in range(0, len(px), 64):
                loss = criterion(model(px[i:i + 64]), py[i:i + 64])
                accelerator.backward(loss)
                optimizer.step()
                optimizer.zero_grad()
        accelerator.print(f"epoch {epoch}: loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
