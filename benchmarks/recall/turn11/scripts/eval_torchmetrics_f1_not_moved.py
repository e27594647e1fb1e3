"""Evaluation of a wafer-map defect classifier: per-class F1 and a confusion matrix with
torchmetrics over the held-out split.

Thread: https://github.com/Lightning-AI/torchmetrics/issues/917 (Accuracy, Precision, Recall
raise RuntimeError when device="cuda": the metric was built on the CPU and fed CUDA tensors).
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.classification import MulticlassConfusionMatrix, MulticlassF1Score

DEFECTS = ["none", "center", "edge-ring", "scratch", "donut"]


class WaferNet(nn.Module):
    def __init__(self, n_classes=len(DEFECTS)):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                      nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1))
        self.head = nn.Linear(32, n_classes)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


@torch.no_grad()
def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = WaferNet().to(device).eval()
    wafers = torch.rand(200, 1, 26, 26)
    labels = torch.randint(0, len(DEFECTS), (200,))
    loader = DataLoader(TensorDataset(wafers, labels), batch_size=40)

    f1 = MulticlassF1Score(num_classes=len(DEFECTS), average=None)  # expect: DEV019
    confmat = MulticlassConfusionMatrix(num_classes=len(DEFECTS)).to(device)
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        preds = model(x).argmax(dim=1)
        f1.update(preds, y)
        confmat.update(preds, y)

    for name, score in zip(DEFECTS, f1.compute().tolist()):
        print(f"{name:>10}: F1 {score:.3f}")
    print(confmat.compute().cpu())


if __name__ == "__main__":
    main()
