"""Image classifier with accelerate + an EMA of the weights.

    accelerate launch e_accel_ema_unprepared_val.py --epochs 3
"""
import argparse
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, TensorDataset


def get_model(num_classes=10):
    return nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(32 * 7 * 7, 128), nn.ReLU(), nn.Linear(128, num_classes),
    )


def get_datasets(seed=0):
    g = torch.Generator().manual_seed(seed)
    def split(n):
        y = torch.randint(0, 10, (n,), generator=g)
        x = torch.randn(n, 1, 28, 28, generator=g) * 0.5
        x[torch.arange(n), 0, y * 2, :] += 2.0
        return TensorDataset(x, y)
    return split(1024), split(256)


@torch.no_grad()
def ema_update(ema_model, model, decay):
    ema_state = ema_model.state_dict()
    for name, value in model.state_dict().items():
        if value.dtype.is_floating_point:
            ema_state[name].mul_(decay).add_(value.detach(), alpha=1 - decay)
        else:
            ema_state[name].copy_(value)


@torch.no_grad()
def evaluate(accelerator, model, loader):
    model.eval()
    correct, total = 0, 0
    for images, labels in loader:
        logits = model(images)  # expect: DEV002
        preds, refs = accelerator.gather_for_metrics((logits.argmax(-1), labels))
        correct += (preds == refs).sum().item()
        total += refs.numel()
    return correct / max(total, 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--ema-decay", type=float, default=0.99)
    ap.add_argument("--mixed-precision", default="no")
    args = ap.parse_args()

    accelerator = Accelerator(mixed_precision=args.mixed_precision)
    set_seed(0)
    train_ds, val_ds = get_datasets()
    train_loader = DataLoader(train_ds, batch_size=64, shuffle=True)
    val_loader = DataLoader(val_ds, batch_size=128)

    model = get_model()
    ema_model = copy.deepcopy(model)  # expect: DEV016
    ema_model.requires_grad_(False)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)

    model, optimizer, train_loader = accelerator.prepare(model, optimizer, train_loader)

    for epoch in range(args.epochs):
        model.train()
        for images, labels in train_loader:
            loss = F.cross_entropy(model(images), labels)
            optimizer.zero_grad()
            accelerator.backward(loss)
            optimizer.step()
            ema_update(ema_model, accelerator.unwrap_model(model), args.ema_decay)

        acc = evaluate(accelerator, model, val_loader)
        accelerator.print(f"epoch {epoch}: loss {loss.item():.4f} val acc {acc:.3f}")

    accelerator.wait_for_everyone()
    if accelerator.is_main_process:
        torch.save(ema_model.state_dict(), "/tmp/e_accel_ema.pt")


if __name__ == "__main__":
    main()
