"""torchmetrics collection moved to the device of the model's outputs.

Look-alike of metric_collection_unmoved.py. Thread: https://github.com/Lightning-AI/torchmetrics/issues/917
"""
import torch
import torch.nn as nn
from torchmetrics import MetricCollection
from torchmetrics.classification import MulticlassAccuracy, MulticlassF1Score


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = nn.Linear(12, 4).to(device)
    scores = MetricCollection([MulticlassAccuracy(num_classes=4), MulticlassF1Score(num_classes=4)]).to(device)
    x, y = torch.randn(32, 12).to(device), torch.randint(0, 4, (32,)).to(device)
    scores.update(net(x).argmax(1), y)
    print(scores.compute())


if __name__ == "__main__":
    main()
