"""Multi-class evaluation with accelerate: predictions gathered across processes, then scored with
scikit-learn.

Thread: https://github.com/neuro-ml/thunder/issues/49 (np.asarray over gathered predictions:
can't convert cuda:0 device type tensor to numpy).
"""
import numpy as np
import torch
import torch.nn as nn
from accelerate import Accelerator
from sklearn.metrics import f1_score
from torch.utils.data import DataLoader, TensorDataset


def evaluate():
    acc = Accelerator()
    clf = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 5))
    ds = TensorDataset(torch.randn(300, 20), torch.randint(0, 5, (300,)))
    dl = DataLoader(ds, batch_size=50)
    clf, dl = acc.prepare(clf, dl)
    clf.eval()
    pred_chunks, gold_chunks = [], []
    with torch.no_grad():
        for xb, yb in dl:
            logits = clf(xb)
            p, g = acc.gather_for_metrics((logits.argmax(-1), yb))
            pred_chunks.append(p.numpy())  # expect: DEV011
            gold_chunks.append(g.cpu().numpy())
    acc.print(f1_score(np.concatenate(gold_chunks), np.concatenate(pred_chunks), average="macro"))


if __name__ == "__main__":
    evaluate()
