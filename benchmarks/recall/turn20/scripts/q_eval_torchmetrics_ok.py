"""Evaluate a small CNN with a torchmetrics collection that lives next to the model."""
import torch
import torch.nn as nn
import torchmetrics
from torch.utils.data import DataLoader, TensorDataset

NUM_CLASSES = 5


def make_model():
    return nn.Sequential(
        nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(8 * 8 * 8, NUM_CLASSES),
    )


def evaluate(model, loader, device):
    metrics = torchmetrics.MetricCollection({
        "acc": torchmetrics.classification.MulticlassAccuracy(num_classes=NUM_CLASSES),
        "f1": torchmetrics.classification.MulticlassF1Score(num_classes=NUM_CLASSES, average="macro"),
    }).to(device)
    model.eval()
    with torch.no_grad():
        for images, labels in loader:
            images, labels = images.to(device), labels.to(device)
            metrics.update(model(images).argmax(dim=1), labels)
    return {k: v.item() for k, v in metrics.compute().items()}


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = make_model().to(device)
    ds = TensorDataset(torch.randn(60, 1, 16, 16), torch.randint(0, NUM_CLASSES, (60,)))
    print(evaluate(model, DataLoader(ds, batch_size=20), device))
