"""Audio-event classifier on log-mel-like features; reports accuracy, macro F1
and AUROC per epoch with torchmetrics."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.classification import MulticlassAccuracy, MulticlassAUROC, MulticlassF1Score

N_CLASSES = 6


class ConvAudio(nn.Module):
    def __init__(self, n_mels=40, n_classes=N_CLASSES):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(n_mels, 64, 5, padding=2), nn.BatchNorm1d(64), nn.ReLU(),
            nn.Conv1d(64, 64, 5, padding=2), nn.BatchNorm1d(64), nn.ReLU(),
        )
        self.fc = nn.Linear(64, n_classes)

    def forward(self, x):
        return self.fc(self.conv(x).mean(-1))


def build_metrics(num_classes):
    return {
        "acc": MulticlassAccuracy(num_classes=num_classes),
        "f1": MulticlassF1Score(num_classes=num_classes, average="macro"),
        "auroc": MulticlassAUROC(num_classes=num_classes),
    }


@torch.no_grad()
def evaluate(model, loader, metrics, device):
    model.eval()
    for m in metrics.values():
        m.reset()
    for feats, labels in loader:
        feats, labels = feats.to(device), labels.to(device)
        probs = F.softmax(model(feats), dim=-1)
        for m in metrics.values():
            m.update(probs, labels)  # expect: DEV019
    return {name: m.compute().item() for name, m in metrics.items()}


def synthetic_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, N_CLASSES, (n,), generator=g)
    x = torch.randn(n, 40, 50, generator=g)
    x[torch.arange(n), y * 5] += 0.6
    return TensorDataset(x, y)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--cpu", action="store_true")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and not args.cpu else "cpu")

    train_loader = DataLoader(synthetic_split(512, 0), batch_size=32, shuffle=True)
    val_loader = DataLoader(synthetic_split(128, 1), batch_size=64)
    model = ConvAudio().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    metrics = build_metrics(N_CLASSES)

    for epoch in range(args.epochs):
        model.train()
        for feats, labels in train_loader:
            feats, labels = feats.to(device), labels.to(device)
            loss = F.cross_entropy(model(feats), labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
        scores = evaluate(model, val_loader, metrics, device)
        print(f"epoch {epoch} " + " ".join(f"{k}={v:.3f}" for k, v in scores.items()))


if __name__ == "__main__":
    main()
