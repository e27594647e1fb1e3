"""Correct look-alike: evaluation that copies each batch's outputs to the host before keeping
them, then hands the lists to NumPy, scikit-learn and matplotlib."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn
from sklearn.metrics import roc_auc_score
from torch.utils.data import DataLoader, TensorDataset


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 1)).to(device)
    x = torch.randn(300, 12)
    y = (x[:, 0] - x[:, 3] > 0).float()
    loader = DataLoader(TensorDataset(x, y), batch_size=50)
    scores, labels, batch_acc = [], [], []
    model.eval()
    with torch.no_grad():
        for xb, yb in loader:
            s = torch.sigmoid(model(xb.to(device))).squeeze(1)
            scores.append(s.cpu())
            labels.append(yb)
            batch_acc.append(((s > 0.5).float().cpu() == yb).float().mean().item())
    s_all = torch.cat(scores).numpy()
    y_all = torch.cat(labels).numpy()
    print("auc", roc_auc_score(y_all, s_all), "mean acc", np.mean(batch_acc))
    fig, ax = plt.subplots()
    ax.hist(s_all[y_all == 1], bins=20, alpha=0.5)
    ax.hist(s_all[y_all == 0], bins=20, alpha=0.5)
    fig.savefig("scores.png")


if __name__ == "__main__":
    main()
