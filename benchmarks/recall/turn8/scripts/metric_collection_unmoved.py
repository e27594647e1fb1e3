"""Plain PyTorch loop that tracks precision/recall/F1 with a torchmetrics MetricCollection.

Thread: https://github.com/Lightning-AI/torchmetrics/issues/917 (Accuracy, Precision, Recall raises
RuntimeError when inputs are on cuda and the metric was never moved); https://github.com/Lightning-AI/pytorch-lightning/issues/4909.
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics import MetricCollection
from torchmetrics.classification import MulticlassF1Score, MulticlassPrecision, MulticlassRecall


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 4)).to(device)
    scores = MetricCollection({  # expect: DEV019
        "p": MulticlassPrecision(num_classes=4),
        "r": MulticlassRecall(num_classes=4),
        "f1": MulticlassF1Score(num_classes=4),
    })
    dl = DataLoader(TensorDataset(torch.randn(160, 12), torch.randint(0, 4, (160,))), batch_size=32)
    with torch.no_grad():
        for xb, yb in dl:
            xb, yb = xb.to(device), yb.to(device)
            scores.update(net(xb).argmax(1), yb)
    print({k: v.item() for k, v in scores.compute().items()})


if __name__ == "__main__":
    main()
