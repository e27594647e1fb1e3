"""Image classifier with AMP, gradient accumulation and resumable checkpoints.

    python g_amp_accum_resume.py --epochs 2 --accum-steps 4 --save ckpt.pt
    python g_amp_accum_resume.py --epochs 3 --resume ckpt.pt
"""
import argparse
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def build_model(num_classes=10):
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        nn.Flatten(), nn.Dropout(0.2), nn.Linear(64, num_classes))


def train_one_epoch(model, loader, criterion, optimizer, scaler, device, accum_steps, use_amp):
    model.train()
    running = 0.0
    optimizer.zero_grad(set_to_none=True)
    for step, (images, targets) in enumerate(loader):
        images = images.to(device, non_blocking=True)
        with torch.autocast(device_type=device.type, dtype=torch.float16, enabled=use_amp):
            outputs = model(images)
            loss = criterion(outputs, targets) / accum_steps  # expect: DEV004
        scaler.scale(loss).backward()
        if (step + 1) % accum_steps == 0 or step + 1 == len(loader):
            scaler.unscale_(optimizer)
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            scaler.step(optimizer)
            scaler.update()
            optimizer.zero_grad(set_to_none=True)
        running += loss.item() * accum_steps
    return running / len(loader)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--accum-steps", type=int, default=4)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--resume", default="")
    parser.add_argument("--save", default="")
    parser.add_argument("--no-amp", action="store_true")
    args = parser.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    use_amp = device.type == "cuda" and not args.no_amp

    ds = TensorDataset(torch.randn(96, 3, 32, 32), torch.randint(0, 10, (96,)))
    loader = DataLoader(ds, batch_size=args.batch_size, shuffle=True, pin_memory=device.type == "cuda")

    model = build_model()
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.05)
    scaler = torch.amp.GradScaler(device.type, enabled=use_amp)
    criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
    start_epoch = 0

    if args.resume and os.path.isfile(args.resume):
        ckpt = torch.load(args.resume, map_location="cpu")
        model.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])  # expect: DEV017
        scaler.load_state_dict(ckpt["scaler"])
        start_epoch = ckpt["epoch"] + 1
        print(f"resumed from {args.resume} at epoch {start_epoch}")

    model.to(device)

    for epoch in range(start_epoch, args.epochs):
        loss = train_one_epoch(model, loader, criterion, optimizer, scaler, device, args.accum_steps, use_amp)
        print(f"epoch {epoch} loss {loss:.4f} scale {scaler.get_scale() if use_amp else 1.0}")
        if args.save:
            torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                        "scaler": scaler.state_dict(), "epoch": epoch}, args.save)


if __name__ == "__main__":
    main()
