"""Plain PyTorch fine-tuning loop that scores each validation epoch with torchmetrics
(accuracy, macro F1, confusion matrix)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.classification import (MulticlassAccuracy, MulticlassConfusionMatrix,
                                         MulticlassF1Score)

NUM_CLASSES = 4


def build_metrics(device):
    acc = MulticlassAccuracy(num_classes=NUM_CLASSES).to(device)
    f1 = MulticlassF1Score(num_classes=NUM_CLASSES, average="macro")  # expect: DEV019
    cm = MulticlassConfusionMatrix(num_classes=NUM_CLASSES).to(device)
    return {"acc": acc, "f1": f1, "cm": cm}


def run_validation(model, loader, metrics, device):
    model.eval()
    for m in metrics.values():
        m.reset()
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            preds = model(x).argmax(dim=1)
            for m in metrics.values():
                m.update(preds, y)
    return {name: m.compute() for name, m in metrics.items()}


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(120, 16)
    y = torch.randint(0, NUM_CLASSES, (120,))
    train_loader = DataLoader(TensorDataset(x[:96], y[:96]), batch_size=16, shuffle=True)
    val_loader = DataLoader(TensorDataset(x[96:], y[96:]), batch_size=16)

    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, NUM_CLASSES)).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    metrics = build_metrics(device)

    for epoch in range(3):
        model.train()
        for xb, yb in train_loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = F.cross_entropy(model(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        scores = run_validation(model, val_loader, metrics, device)
        print(f"epoch {epoch} acc {scores['acc']:.3f} f1 {scores['f1']:.3f}")
        print(scores["cm"].cpu())


if __name__ == "__main__":
    main()
