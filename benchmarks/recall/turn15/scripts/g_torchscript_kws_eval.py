"""Trace the keyword-spotting CNN with TorchScript, then evaluate the traced module
on the validation spectrograms and report accuracy + latency."""
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

KEYWORDS = ["yes", "no", "up", "down", "left", "right", "_silence_", "_unknown_"]


class KWSNet(nn.Module):
    def __init__(self, n_mels=40, n_classes=len(KEYWORDS)):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, (3, 3), padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, (3, 3), padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.AdaptiveAvgPool2d((1, 1)))
        self.classifier = nn.Linear(32, n_classes)

    def forward(self, spec):
        return self.classifier(self.features(spec.unsqueeze(1)).flatten(1))


def trace(model, example):
    model.eval()
    with torch.no_grad():
        traced = torch.jit.trace(model, example)
    return torch.jit.freeze(traced)


def evaluate(traced, loader):
    preds, labels, latencies = [], [], []
    with torch.no_grad():
        for spec, y in loader:
            t0 = time.perf_counter()
            logits = traced(spec)  # expect: DEV002
            latencies.append(time.perf_counter() - t0)
            preds.append(logits.argmax(dim=1).numpy())  # expect: DEV011
            labels.append(y.numpy())
    preds, labels = np.concatenate(preds), np.concatenate(labels)
    return (preds == labels).mean(), 1000 * np.median(latencies)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    val = TensorDataset(torch.randn(64, 40, 101), torch.randint(0, len(KEYWORDS), (64,)))
    loader = DataLoader(val, batch_size=16)

    model = KWSNet().to(device)
    example = torch.randn(1, 40, 101, device=device)
    traced = trace(model, example)
    traced.save("kws_traced.pt")

    acc, ms = evaluate(traced, loader)
    print(f"val acc {acc:.3f}  median batch latency {ms:.2f} ms")


if __name__ == "__main__":
    main()
