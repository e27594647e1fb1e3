"""Image classifier trained with accelerate and an EMA copy of the weights used for evaluation."""
import argparse
import copy

import torch
import torch.nn.functional as F
from accelerate import Accelerator
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class SmallCNN(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(64, n_classes)

    def forward(self, x):
        return self.fc(self.body(x).flatten(1))


@torch.no_grad()
def ema_update(ema, model, decay):
    for e, p in zip(ema.parameters(), model.parameters()):
        e.mul_(decay).add_(p.detach(), alpha=1 - decay)
    for e, b in zip(ema.buffers(), model.buffers()):
        e.copy_(b)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--ema-decay", type=float, default=0.999)
    ap.add_argument("--noise-std", type=float, default=0.05)
    args = ap.parse_args()

    accelerator = Accelerator()
    x = torch.randn(2000, 3, 32, 32)
    y = torch.randint(0, 10, (2000,))
    train_loader = DataLoader(TensorDataset(x[:1600], y[:1600]), batch_size=64, shuffle=True)
    val_loader = DataLoader(TensorDataset(x[1600:], y[1600:]), batch_size=128)

    model = SmallCNN()
    ema_model = copy.deepcopy(model).eval()  # expect: DEV016
    for p in ema_model.parameters():
        p.requires_grad_(False)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True)
    model, optimizer, train_loader, val_loader = accelerator.prepare(model, optimizer, train_loader, val_loader)

    for epoch in range(args.epochs):
        model.train()
        for images, labels in train_loader:
            noise = torch.randn(images.shape) * args.noise_std  # expect: DEV006
            logits = model(images + noise)
            loss = F.cross_entropy(logits, labels, label_smoothing=0.1)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
            ema_update(ema_model, accelerator.unwrap_model(model), args.ema_decay)

        correct = torch.zeros((), device=accelerator.device)
        total = torch.zeros((), device=accelerator.device)
        with torch.no_grad():
            for images, labels in val_loader:
                preds = ema_model(images).argmax(-1)
                preds, labels = accelerator.gather_for_metrics((preds, labels))
                correct += (preds == labels).sum()
                total += labels.numel()
        accelerator.print(f"epoch {epoch}: EMA acc {(correct / total).item():.3f}")


if __name__ == "__main__":
    main()
