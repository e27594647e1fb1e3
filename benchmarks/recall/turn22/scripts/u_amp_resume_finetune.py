"""Resume a mixed-precision fine-tuning run from its last checkpoint, then evaluate.

python u_amp_resume_finetune.py --resume last.pt --epochs 1
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def make_loaders(n=96, batch_size=16):
    g = torch.Generator().manual_seed(1)
    x = torch.randn(n, 3, 16, 16, generator=g)
    y = torch.randint(0, 5, (n,), generator=g)
    train = TensorDataset(x[:64], y[:64])
    val = TensorDataset(x[64:], y[64:])
    return (DataLoader(train, batch_size=batch_size, shuffle=True),
            DataLoader(val, batch_size=batch_size))


def make_model():
    return nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 5),
    )


def evaluate(model, loader, criterion, device):
    model.eval()
    total, correct, loss_sum = 0, 0, 0.0
    with torch.no_grad():
        for x, y in loader:
            x = x.to(device)
            with torch.autocast(device_type=device.type, enabled=device.type == "cuda"):
                out = model(x)
            loss_sum += criterion(out.float(), y).item() * len(y)  # expect: DEV004
            correct += (out.argmax(1).cpu() == y).sum().item()
            total += len(y)
    return loss_sum / total, correct / total


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--resume", default=None)
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--lr", type=float, default=1e-3)
    args = p.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_loader, val_loader = make_loaders()
    model = make_model()
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    scaler = torch.amp.GradScaler(device.type, enabled=device.type == "cuda")
    criterion = nn.CrossEntropyLoss()

    if args.resume is None:
        # simulate the checkpoint of an earlier run (one step taken, so Adam has state)
        args.resume = os.path.join(tempfile.mkdtemp(), "last.pt")
        loss = criterion(model(torch.randn(4, 3, 16, 16)), torch.randint(0, 5, (4,)))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                    "scaler": scaler.state_dict(), "epoch": 4}, args.resume)

    ckpt = torch.load(args.resume, map_location="cpu")
    model.load_state_dict(ckpt["model"])
    optimizer.load_state_dict(ckpt["optimizer"])  # expect: DEV017
    scaler.load_state_dict(ckpt["scaler"])
    start_epoch = ckpt["epoch"] + 1
    model.to(device)

    for epoch in range(start_epoch, start_epoch + args.epochs):
        model.train()
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad(set_to_none=True)
            with torch.autocast(device_type=device.type, enabled=device.type == "cuda"):
                loss = criterion(model(x), y)
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
        val_loss, val_acc = evaluate(model, val_loader, criterion, device)
        print(f"epoch {epoch}: val_loss={val_loss:.3f} val_acc={val_acc:.3f}")


if __name__ == "__main__":
    main()
