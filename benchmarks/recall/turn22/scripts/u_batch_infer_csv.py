"""Batch inference over a folder of feature files, predictions written to a CSV.

Usage: python u_batch_infer_csv.py --ckpt model.pt --out preds.csv [--cpu]
"""
import argparse
import csv
import os
import tempfile

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class TabularNet(nn.Module):
    def __init__(self, n_in=16, n_hidden=32, n_classes=4):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(n_in, n_hidden), nn.ReLU(), nn.Dropout(0.1),
            nn.Linear(n_hidden, n_hidden), nn.ReLU(),
        )
        self.head = nn.Linear(n_hidden, n_classes)

    def forward(self, x):
        return self.head(self.body(x))


class RowDataset(Dataset):
    def __init__(self, n_rows=50, n_in=16):
        g = torch.Generator().manual_seed(0)
        self.rows = torch.randn(n_rows, n_in, generator=g)
        self.ids = [f"row-{i:04d}" for i in range(n_rows)]

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, i):
        return self.ids[i], self.rows[i]


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--ckpt", default=None)
    p.add_argument("--out", default=None)
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--cpu", action="store_true", help="force CPU inference")
    return p.parse_args()


def load_model(path, device):
    model = TabularNet()
    state = torch.load(path)  # expect: DEV008
    model.load_state_dict(state["model"])
    return model.to(device).eval()


@torch.no_grad()
def predict(model, loader, device):
    rows = []
    for ids, x in loader:
        x = x.to(device, non_blocking=True)
        logits = model(x)
        conf, pred = logits.softmax(dim=-1).max(dim=-1)
        pred_np = pred.numpy()  # expect: DEV011
        conf_np = conf.cpu().numpy()
        for rid, p, c in zip(ids, pred_np, conf_np):
            rows.append((rid, int(p), float(c)))
    return rows


def main():
    args = parse_args()
    use_cuda = torch.cuda.is_available() and not args.cpu
    device = torch.device("cuda" if use_cuda else "cpu")

    workdir = tempfile.mkdtemp()
    if args.ckpt is None:
        # stand-in for the checkpoint the training job wrote
        args.ckpt = os.path.join(workdir, "model.pt")
        torch.save({"model": TabularNet().state_dict(), "epoch": 3}, args.ckpt)
    out_path = args.out or os.path.join(workdir, "preds.csv")

    model = load_model(args.ckpt, device)
    loader = DataLoader(RowDataset(), batch_size=args.batch_size, pin_memory=use_cuda)
    rows = predict(model, loader, device)

    with open(out_path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "label", "confidence"])
        w.writerows(rows)
    print(f"wrote {len(rows)} predictions to {out_path}")


if __name__ == "__main__":
    main()
