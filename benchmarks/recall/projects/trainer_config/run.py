import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from config import Config
from trainer import Trainer


def build_model(cfg):
    return nn.Sequential(
        nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        nn.Flatten(), nn.Linear(16, cfg.num_classes))


def synthetic(cfg, n):
    x = torch.randn(n, 1, cfg.image_size, cfg.image_size)
    probs = torch.tensor([0.55, 0.25, 0.15, 0.05])
    y = torch.multinomial(probs, n, replacement=True)
    return TensorDataset(x, y)


def main():
    torch.manual_seed(0)
    cfg = Config()
    train_loader = DataLoader(synthetic(cfg, 96), batch_size=cfg.batch_size, shuffle=True)
    val_loader = DataLoader(synthetic(cfg, 32), batch_size=cfg.batch_size)
    trainer = Trainer(build_model(cfg), cfg)
    trainer.fit(train_loader)
    print(f"val accuracy: {trainer.accuracy(val_loader):.3f}")

    # show a few predictions from the first validation batch
    images, labels = next(iter(val_loader))
    with torch.no_grad():
        preds = trainer.model(images).argmax(dim=1)  # expect: DEV002
    print("pred:", preds[:8].tolist())
    print("true:", labels[:8].tolist())


if __name__ == "__main__":
    main()
