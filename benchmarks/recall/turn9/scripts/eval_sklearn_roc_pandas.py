"""Churn model evaluation: probabilities and labels gathered over the test loader, then ROC AUC with
scikit-learn and a per-segment table with pandas.

Thread: https://github.com/BindsNET/bindsnet/issues/382 (confusion matrix with scikit-learn: runs on
CPU, fails on a CUDA GPU with can't convert cuda:0 device type tensor to numpy).
"""
import pandas as pd
import torch
import torch.nn as nn
from sklearn.metrics import roc_auc_score
from torch.utils.data import DataLoader, TensorDataset


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1)).to(device).eval()
    ds = TensorDataset(torch.randn(200, 8), torch.randint(0, 2, (200,)), torch.randint(0, 3, (200,)))
    probs, labels, segments = [], [], []
    with torch.no_grad():
        for x, y, seg in DataLoader(ds, batch_size=50):
            probs.append(torch.sigmoid(model(x.to(device))).squeeze(1))
            labels.append(y)
            segments.append(seg)
    p = torch.cat(probs)
    y = torch.cat(labels)
    print("AUC", roc_auc_score(y.numpy(), p))  # expect: DEV011
    df = pd.DataFrame({"p": p.cpu().numpy(), "y": y.numpy(), "seg": torch.cat(segments).numpy()})
    print(df.groupby("seg").mean())


if __name__ == "__main__":
    main()
