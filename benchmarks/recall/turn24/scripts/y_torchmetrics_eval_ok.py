"""Evaluate a checkpointed image classifier with torchmetrics.

needs: torchmetrics
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.classification import MulticlassAccuracy, MulticlassF1Score


class SmallConvNet(nn.Module):
    def __init__(self, n_classes=6):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.classifier = nn.Linear(32, n_classes)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


class Evaluator:
    def __init__(self, n_classes, device):
        self.device = device
        self.accuracy = MulticlassAccuracy(num_classes=n_classes, average="micro").to(device)
        self.macro_f1 = MulticlassF1Score(num_classes=n_classes, average="macro")
        self.macro_f1 = self.macro_f1.to(device)

    @torch.no_grad()
    def run(self, model, loader):
        model.eval()
        self.accuracy.reset()
        self.macro_f1.reset()
        for images, labels in loader:
            images, labels = images.to(self.device), labels.to(self.device)
            preds = model(images).argmax(dim=1)
            self.accuracy.update(preds, labels)
            self.macro_f1.update(preds, labels)
        return {"acc": self.accuracy.compute().item(), "macro_f1": self.macro_f1.compute().item()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--weights", default="")
    ap.add_argument("--no-cuda", action="store_true")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")

    model = SmallConvNet()
    if args.weights:
        model.load_state_dict(torch.load(args.weights, map_location="cpu"))
    model.to(device)

    g = torch.Generator().manual_seed(1)
    data = TensorDataset(torch.randn(200, 1, 28, 28, generator=g), torch.randint(0, 6, (200,), generator=g))
    print(Evaluator(6, device).run(model, DataLoader(data, batch_size=50)))


if __name__ == "__main__":
    main()
