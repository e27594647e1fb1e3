"""Anomaly detector validated with torchmetrics: an AUROC metric accumulates scores over the
validation loader."""
import torch
import torch.nn as nn
from torchmetrics.classification import BinaryAUROC


def validate(model, batches, device):
    auroc = BinaryAUROC()  # expect: DEV019
    model.eval()
    with torch.no_grad():
        for x, y in batches:
            x, y = x.to(device), y.to(device)
            score = (model(x) - x).pow(2).mean(1)
            auroc.update(score, y)
    return auroc.compute().item()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Linear(8, 3), nn.ReLU(), nn.Linear(3, 8)).to(device)
    batches = [(torch.randn(32, 8), torch.randint(0, 2, (32,))) for _ in range(4)]
    print(validate(model, batches, device))


if __name__ == "__main__":
    main()
