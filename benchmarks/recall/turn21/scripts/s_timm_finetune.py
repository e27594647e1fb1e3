"""Fine-tune a timm model on an imbalanced image folder (class-weighted CE with label
smoothing). Run: python s_timm_finetune.py --model resnet18 --class-weights 1 3 6
"""
import argparse
import time

import timm
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--model", default="resnet18")
    p.add_argument("--num-classes", type=int, default=3)
    p.add_argument("--class-weights", type=float, nargs="+", default=[1.0, 3.0, 6.0])
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--no-cuda", action="store_true")
    return p.parse_args()


def make_loaders(num_classes, batch_size):
    x = torch.randn(64, 3, 64, 64)
    y = torch.randint(0, num_classes, (64,))
    train = DataLoader(TensorDataset(x[:48], y[:48]), batch_size=batch_size, shuffle=True, pin_memory=True)
    val = DataLoader(TensorDataset(x[48:], y[48:]), batch_size=batch_size)
    return train, val


def train_one_epoch(model, loader, criterion, optimizer, device, epoch):
    model.train()
    t0 = time.time()
    for step, (images, targets) in enumerate(loader):
        images = images.to(device, non_blocking=True)
        targets.to(device, non_blocking=True)  # expect: DEV005
        output = model(images)
        loss = criterion(output, targets)  # also: DEV004
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 2 == 0:
            print(f"epoch {epoch} step {step} loss {loss.item():.4f} ({time.time() - t0:.1f}s)")


@torch.no_grad()
def validate(model, loader, device):
    model.eval()
    correct = total = 0
    for images, targets in loader:
        images, targets = images.to(device), targets.to(device)
        correct += (model(images).argmax(1) == targets).sum().item()
        total += targets.numel()
    return correct / max(total, 1)


def main():
    args = get_args()
    use_cuda = torch.cuda.is_available() and not args.no_cuda
    device = torch.device("cuda" if use_cuda else "cpu")

    model = timm.create_model(args.model, pretrained=False, num_classes=args.num_classes)
    model = model.to(device)

    weights = torch.tensor(args.class_weights, dtype=torch.float32)
    criterion = nn.CrossEntropyLoss(weight=weights, label_smoothing=0.1)  # expect: DEV012
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.05)

    train_loader, val_loader = make_loaders(args.num_classes, args.batch_size)
    for epoch in range(args.epochs):
        train_one_epoch(model, train_loader, criterion, optimizer, device, epoch)
        print(f"epoch {epoch} val acc {validate(model, val_loader, device):.3f}")


if __name__ == "__main__":
    main()
