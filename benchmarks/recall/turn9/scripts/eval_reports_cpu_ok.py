"""Look-alike of eval_sklearn_roc_pandas.py: outputs moved back with .cpu() before scikit-learn and
pandas, per-batch accuracies kept as Python floats with .item(), np.mean of floats.

Thread: https://github.com/amirgholami/TRAttack/pull/3 (add cpu(), fix can't convert bug).
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from sklearn.metrics import confusion_matrix, f1_score
from torch.utils.data import DataLoader, TensorDataset


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 3)).to(device).eval()
    ds = TensorDataset(torch.randn(120, 8), torch.randint(0, 3, (120,)))
    preds, labels, accs = [], [], []
    with torch.no_grad():
        for x, y in DataLoader(ds, batch_size=40):
            x, y = x.to(device), y.to(device)
            pred = model(x).argmax(-1)
            accs.append((pred == y).float().mean().item())
            preds.append(pred.cpu())
            labels.append(y.cpu())
    p, t = torch.cat(preds).numpy(), torch.cat(labels).numpy()
    print(confusion_matrix(t, p), f1_score(t, p, average="macro"), np.mean(accs))
    print(pd.DataFrame({"pred": p, "true": t}).value_counts().head())


if __name__ == "__main__":
    main()
