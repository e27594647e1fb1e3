"""Validation loop for a segmentation model with torchmetrics and wandb logging."""
import argparse

import torch
import torch.nn as nn
import wandb
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.classification import MulticlassAccuracy, MulticlassJaccardIndex


class SegNet(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, num_classes, 1))

    def forward(self, x):
        return self.body(x)


def colorize(mask, palette):
    return palette[mask]


@torch.no_grad()
def evaluate(model, loader, device, num_classes, palette, step):
    miou = MulticlassJaccardIndex(num_classes=num_classes, ignore_index=255)  # expect: DEV019
    acc = MulticlassAccuracy(num_classes=num_classes, ignore_index=255).to(device)
    model.eval()
    for i, (img, mask) in enumerate(loader):
        img, mask = img.to(device), mask.to(device)
        pred = model(img).argmax(1)
        miou.update(pred, mask)
        acc.update(pred, mask)
        if i == 0:
            wandb.log({
                "val/input": wandb.Image(img[0].cpu()),
                "val/pred": wandb.Image(colorize(pred[0].numpy(), palette)),  # expect: DEV011
            }, step=step)
    return {"val/miou": miou.compute().item(), "val/acc": acc.compute().item()}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--num-classes", type=int, default=5)
    p.add_argument("--project", default="seg-debug")
    args = p.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    wandb.init(project=args.project, mode="offline")
    imgs = torch.rand(16, 3, 32, 32)
    masks = torch.randint(0, args.num_classes, (16, 32, 32))
    loader = DataLoader(TensorDataset(imgs, masks), batch_size=4)
    model = SegNet(args.num_classes).to(device)
    palette = torch.randint(0, 255, (args.num_classes, 3)).numpy().astype("uint8")
    metrics = evaluate(model, loader, device, args.num_classes, palette, step=0)
    wandb.log(metrics, step=0)
    print(metrics)


if __name__ == "__main__":
    main()
