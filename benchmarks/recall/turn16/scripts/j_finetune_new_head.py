"""Stage 2 of a two-stage recipe: take the stage-1 checkpoint (10-way pretraining), swap the
classifier for the 3-way downstream task, fine-tune, and keep the best epoch."""
import argparse
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Backbone(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(width, 2 * width, 3, padding=1), nn.BatchNorm2d(2 * width), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.out_dim = 2 * width


class Classifier(nn.Module):
    def __init__(self, n_classes, width=32):
        super().__init__()
        self.backbone = Backbone(width)
        self.fc = nn.Linear(self.backbone.out_dim, n_classes)

    def forward(self, x):
        return self.fc(self.backbone.features(x))


def stage1_checkpoint(path):
    """Stand-in for the pretraining run's output."""
    torch.save({"model": Classifier(10).state_dict(), "epoch": 90}, path)


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    correct, total = 0, 0
    for inputs, targets in loader:
        inputs = inputs.to(device)
        targets.to(device)  # expect: DEV005
        preds = model(inputs).argmax(dim=1)
        correct += (preds == targets).sum().item()
        total += targets.size(0)
    return correct / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pretrained", default="")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--lr-head", type=float, default=1e-2)
    ap.add_argument("--lr-backbone", type=float, default=1e-3)
    ap.add_argument("--gpu", action="store_true", help="use CUDA if available")
    args = ap.parse_args()

    device = torch.device("cuda" if args.gpu and torch.cuda.is_available() else "cpu")
    workdir = tempfile.mkdtemp()
    if not args.pretrained:
        args.pretrained = os.path.join(workdir, "stage1.pt")
        stage1_checkpoint(args.pretrained)

    model = Classifier(10)
    ckpt = torch.load(args.pretrained, map_location="cpu")
    model.load_state_dict(ckpt["model"])
    print(f"loaded stage-1 weights from epoch {ckpt['epoch']}")
    model.to(device)

    # downstream task has 3 classes
    model.fc = nn.Linear(model.backbone.out_dim, 3)  # expect: DEV015

    optimizer = torch.optim.SGD([
        {"params": model.backbone.parameters(), "lr": args.lr_backbone},
        {"params": model.fc.parameters(), "lr": args.lr_head},
    ], momentum=0.9)

    x = torch.randn(240, 3, 16, 16)
    y = torch.randint(0, 3, (240,))
    x[torch.arange(240), y] += 1.5
    train_loader = DataLoader(TensorDataset(x[:192], y[:192]), batch_size=32, shuffle=True)
    val_loader = DataLoader(TensorDataset(x[192:], y[192:]), batch_size=48)

    best_acc, best_path = -1.0, os.path.join(workdir, "stage2_best.pt")
    for epoch in range(args.epochs):
        model.train()
        for inputs, targets in train_loader:
            inputs, targets = inputs.to(device), targets.to(device)
            loss = F.cross_entropy(model(inputs), targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        acc = evaluate(model, val_loader, device)
        print(f"epoch {epoch}: loss {loss.item():.3f} val acc {acc:.3f}")
        if acc > best_acc:
            best_acc = acc
            torch.save(model.state_dict(), best_path)

    model.load_state_dict(torch.load(best_path, map_location=device))
    print(f"best val acc {evaluate(model, val_loader, device):.3f}")


if __name__ == "__main__":
    main()
