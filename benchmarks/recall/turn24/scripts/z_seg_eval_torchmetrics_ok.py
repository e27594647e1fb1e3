"""Validation loop with torchmetrics (metrics moved with the model) and wandb images from CPU copies."""
import argparse

import torch
import torch.nn as nn
import wandb
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics import MetricCollection
from torchmetrics.classification import MulticlassAccuracy, MulticlassJaccardIndex


class SegNet(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, num_classes, 1))

    def forward(self, x):
        return self.body(x)


@torch.no_grad()
def evaluate(model, loader, metrics, device, palette, step):
    metrics.reset()
    model.eval()
    for i, (img, mask) in enumerate(loader):
        img, mask = img.to(device), mask.to(device)
        pred = model(img).argmax(1)
        metrics.update(pred, mask)
        if i == 0:
            wandb.log({"val/pred": wandb.Image(palette[pred[0].cpu().numpy()])}, step=step)
    return {k: v.item() for k, v in metrics.compute().items()}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--num-classes", type=int, default=5)
    args = p.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    wandb.init(project="seg-debug", mode="offline")
    loader = DataLoader(TensorDataset(torch.rand(16, 3, 32, 32), torch.randint(0, args.num_classes, (16, 32, 32))),
                        batch_size=4)
    model = SegNet(args.num_classes).to(device)
    metrics = MetricCollection({
        "miou": MulticlassJaccardIndex(num_classes=args.num_classes, ignore_index=255),
        "acc": MulticlassAccuracy(num_classes=args.num_classes, ignore_index=255),
    }).to(device)
    palette = torch.randint(0, 255, (args.num_classes, 3)).numpy().astype("uint8")
    out = evaluate(model, loader, metrics, device, palette, step=0)
    wandb.log(out, step=0)
    print(out)


if __name__ == "__main__":
    main()
