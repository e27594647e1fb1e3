"""Evaluate a saved CNN on a held-out split with torchmetrics."""
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
    metric = torchmetrics.classification.MulticlassF1Score(num_classes=NUM_CLASSES, average="macro")  # expect: DEV019
    model.eval()
    with torch.no_grad():
        for images, labels in loader:
            images, labels = images.to(device), labels.to(device)
            preds = model(images).argmax(dim=1)
            metric.update(preds, labels)
    return metric.compute().item()


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = make_model().to(device)
    ds = TensorDataset(torch.randn(60, 1, 16, 16), torch.randint(0, NUM_CLASSES, (60,)))
    print("macro F1:", evaluate(model, DataLoader(ds, batch_size=20), device))
