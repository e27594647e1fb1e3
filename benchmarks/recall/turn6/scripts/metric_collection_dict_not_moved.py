"""Segmentation training with torchmetrics: one MetricCollection per split, kept in a dict and
updated with the device predictions every step."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torchmetrics import MetricCollection
from torchmetrics.classification import MulticlassAccuracy, MulticlassJaccardIndex


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    n_classes = 3
    model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, n_classes, 1)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    metrics = {
        split: MetricCollection({"acc": MulticlassAccuracy(n_classes), "miou": MulticlassJaccardIndex(n_classes)})  # expect: DEV019
        for split in ("train", "val")
    }
    for step in range(20):
        img = torch.randn(4, 3, 32, 32, device=device)
        mask = (img[:, 0] > 0).long() + (img[:, 1] > 1).long()
        logits = model(img)
        loss = F.cross_entropy(logits, mask)
        opt.zero_grad()
        loss.backward()
        opt.step()
        metrics["train"].update(logits.argmax(1), mask)
    print({k: v.item() for k, v in metrics["train"].compute().items()})


if __name__ == "__main__":
    main()
