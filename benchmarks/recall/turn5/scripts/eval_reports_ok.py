"""Evaluation collecting device outputs the right way: detached and brought to the CPU before
NumPy, scikit-learn and matplotlib see them; scalars taken with .item()."""
import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn
from sklearn.metrics import precision_recall_curve
from torch.utils.data import DataLoader, TensorDataset


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bins", type=int, default=10)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 1)).to(device).eval()
    x = torch.randn(2000, 20)
    y = (x[:, 0] > 0).long()
    loader = DataLoader(TensorDataset(x, y), batch_size=250)
    scores, targets, losses = [], [], []
    with torch.no_grad():
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            logit = model(xb).squeeze(-1)
            losses.append(nn.functional.binary_cross_entropy_with_logits(logit, yb.float()).item())
            scores.append(logit.sigmoid().cpu())
            targets.append(yb.cpu())
    scores = torch.cat(scores).numpy()
    targets = torch.cat(targets).numpy()
    precision, recall, _ = precision_recall_curve(targets, scores)
    which = np.digitize(scores, np.linspace(0, 1, args.bins + 1)[1:-1])
    print("mean loss", np.mean(losses), "bins", np.bincount(which, minlength=args.bins))
    plt.plot(recall, precision)
    plt.savefig("pr.png")


if __name__ == "__main__":
    main()
