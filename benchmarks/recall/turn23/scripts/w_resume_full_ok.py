"""(Correct) Train with AMP + EMA and resume everything (model, EMA, optimizer, scheduler, scaler) from a checkpoint."""
import argparse
import copy
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F


def build_model(width):
    return nn.Sequential(
        nn.Conv2d(1, width, 3, padding=1), nn.GELU(),
        nn.Conv2d(width, width, 3, stride=2, padding=1), nn.GELU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(width, 10),
    )


@torch.no_grad()
def ema_update(ema, model, decay):
    for e, p in zip(ema.parameters(), model.parameters()):
        e.mul_(decay).add_(p.detach(), alpha=1 - decay)


def get_batches(n, bs=8):
    g = torch.Generator().manual_seed(n)
    return [(torch.randn(bs, 1, 12, 12, generator=g), torch.randint(0, 10, (bs,), generator=g))
            for _ in range(n)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--width", type=int, default=16)
    parser.add_argument("--resume", default="")
    parser.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "w_resume_full_ok.pt"))
    parser.add_argument("--cpu", action="store_true")
    parser.add_argument("--ema-decay", type=float, default=0.99)
    args = parser.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() and not args.cpu else "cpu")
    use_amp = device.type == "cuda"

    model = build_model(args.width).to(device)
    ema = copy.deepcopy(model)
    ema.requires_grad_(False)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=args.epochs * 4)
    scaler = torch.amp.GradScaler("cuda", enabled=use_amp)
    start_epoch = 0

    if args.resume:
        ckpt = torch.load(args.resume, map_location=device)
        model.load_state_dict(ckpt["model"])
        ema.load_state_dict(ckpt["ema"])
        optimizer.load_state_dict(ckpt["optimizer"])
        scheduler.load_state_dict(ckpt["scheduler"])
        scaler.load_state_dict(ckpt["scaler"])
        start_epoch = ckpt["epoch"] + 1
        print(f"resumed from epoch {ckpt['epoch']}")

    for epoch in range(start_epoch, start_epoch + args.epochs):
        model.train()
        for x, y in get_batches(4):
            x, y = x.to(device), y.to(device)
            with torch.autocast(device_type=device.type, enabled=use_amp):
                loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad(set_to_none=True)
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
            scheduler.step()
            ema_update(ema, model, args.ema_decay)

        ema.eval()
        correct = 0
        with torch.no_grad():
            for x, y in get_batches(2):
                x, y = x.to(device), y.to(device)
                correct += (ema(x).argmax(1) == y).sum().item()
        print(f"epoch {epoch} loss {loss.item():.3f} ema-acc {correct / 16:.2f}")

        torch.save({
            "model": model.state_dict(), "ema": ema.state_dict(),
            "optimizer": optimizer.state_dict(), "scheduler": scheduler.state_dict(),
            "scaler": scaler.state_dict(), "epoch": epoch,
        }, args.out)


if __name__ == "__main__":
    main()
