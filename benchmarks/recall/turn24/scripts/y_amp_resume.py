"""Mixed-precision training of a small MLP classifier with checkpoint/resume.

python y_amp_resume.py --epochs 2 --ckpt /tmp/y_amp.pt
python y_amp_resume.py --epochs 4 --ckpt /tmp/y_amp.pt --resume
"""
import argparse
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def get_loaders(batch_size):
    g = torch.Generator().manual_seed(7)
    x = torch.randn(600, 20, generator=g)
    y = (x[:, :5].sum(1) > 0).long()
    train = TensorDataset(x[:500], y[:500])
    val = TensorDataset(x[500:], y[500:])
    return DataLoader(train, batch_size=batch_size, shuffle=True), DataLoader(val, batch_size=batch_size)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(20, 128), nn.ReLU(), nn.Dropout(0.1), nn.Linear(128, 2))

    def forward(self, x):
        return self.body(x)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--ckpt", default="/tmp/y_amp.pt")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--lr", type=float, default=1e-3)
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    use_amp = device.type == "cuda"
    train_loader, val_loader = get_loaders(64)

    model = MLP()
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    scaler = torch.amp.GradScaler("cuda", enabled=use_amp)
    start_epoch = 0

    if args.resume and os.path.exists(args.ckpt):
        ckpt = torch.load(args.ckpt)  # expect: DEV008
        model.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])  # expect: DEV017
        scaler.load_state_dict(ckpt["scaler"])
        start_epoch = ckpt["epoch"] + 1
        print(f"resumed from epoch {ckpt['epoch']}")

    model.to(device)
    criterion = nn.CrossEntropyLoss()

    for epoch in range(start_epoch, args.epochs):
        model.train()
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad(set_to_none=True)
            with torch.autocast(device_type=device.type, dtype=torch.float16, enabled=use_amp):
                loss = criterion(model(x), y)
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()

        model.eval()
        correct = 0
        with torch.no_grad():
            for x, y in val_loader:
                x, y = x.to(device), y.to(device)
                correct += (model(x).argmax(1) == y).sum().item()
        print(f"epoch {epoch}: val acc {correct / len(val_loader.dataset):.3f}")
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                    "scaler": scaler.state_dict(), "epoch": epoch}, args.ckpt)


if __name__ == "__main__":
    main()
