"""Batch inference for the sensor anomaly model.

    python j_predict_cli.py --checkpoint models/best.pt --input readings.npy --out scores.csv
    python j_predict_cli.py --demo            # writes a tiny checkpoint + input first

Runs on the GPU when there is one, otherwise on the CPU (the ops team runs it on laptops).
"""
import argparse
import csv
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn


class AutoEncoder(nn.Module):
    def __init__(self, n_features=12, bottleneck=3):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(n_features, 8), nn.ReLU(), nn.Linear(8, bottleneck))
        self.dec = nn.Sequential(nn.Linear(bottleneck, 8), nn.ReLU(), nn.Linear(8, n_features))

    def forward(self, x):
        return self.dec(self.enc(x))


def write_demo_files(folder):
    model = AutoEncoder()
    ckpt = os.path.join(folder, "best.pt")
    torch.save({"state_dict": model.state_dict(), "n_features": 12, "threshold": 0.8}, ckpt)
    inp = os.path.join(folder, "readings.npy")
    np.save(inp, np.random.default_rng(0).normal(size=(50, 12)).astype(np.float32))
    return ckpt, inp


def load_model(path, device):
    ckpt = torch.load(path)  # expect: DEV008
    model = AutoEncoder(n_features=ckpt["n_features"])
    model.load_state_dict(ckpt["state_dict"])
    return model.to(device).eval(), ckpt["threshold"]


def score(model, readings, device, batch_size=16):
    scores = []
    with torch.no_grad():
        for start in range(0, len(readings), batch_size):
            chunk = torch.from_numpy(readings[start:start + batch_size])  # expect: DEV006
            recon = model(chunk)
            err = ((recon - chunk) ** 2).mean(dim=1)
            scores.extend(err.cpu().tolist())
    return scores


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--checkpoint")
    ap.add_argument("--input")
    ap.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "scores.csv"))
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--demo", action="store_true")
    args = ap.parse_args()

    if args.demo or not args.checkpoint:
        args.checkpoint, args.input = write_demo_files(tempfile.mkdtemp())

    device = torch.device(args.device)
    model, threshold = load_model(args.checkpoint, device)
    readings = np.load(args.input).astype(np.float32)
    scores = score(model, readings, device)

    with open(args.out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["row", "score", "anomaly"])
        for i, s in enumerate(scores):
            w.writerow([i, f"{s:.5f}", int(s > threshold)])
    print(f"wrote {len(scores)} scores to {args.out}; {sum(s > threshold for s in scores)} anomalies")


if __name__ == "__main__":
    main()
