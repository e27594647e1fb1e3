"""Evaluation that copies outputs to the host before NumPy, scikit-learn and matplotlib, and keeps
the batch's file names (strings) as they come.

Look-alike of eval_abs_errors_hist.py and eval_confusion_matrix_lists.py.
Thread: https://github.com/JDAI-CV/fast-reid/pull/509
"""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn
from sklearn.metrics import confusion_matrix
from torch.utils.data import DataLoader, Dataset


class Files(Dataset):
    def __len__(self):
        return 48

    def __getitem__(self, i):
        return torch.randn(6), i % 3, f"img_{i:03d}.png"


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    clf = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3)).to(device)
    names, preds, gold, conf = [], [], [], []
    with torch.no_grad():
        for x, y, fname in DataLoader(Files(), batch_size=16):
            probs = clf(x.to(device)).softmax(-1)
            preds.extend(probs.argmax(1).cpu().tolist())
            conf.append(probs.max(1).values.cpu())
            gold.extend(y.tolist())
            names.extend(fname)
    print(confusion_matrix(gold, preds), names[:2])
    plt.hist(torch.cat(conf).numpy(), bins=10)
    plt.savefig("conf.png")
    print(np.mean([c.mean().item() for c in conf]))


if __name__ == "__main__":
    main()
