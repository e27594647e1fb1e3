"""Train the coastline model: python train.py"""
import torch
import torch.nn as nn

from config import Config
from data import loaders
from models import CoordSegNet


def pixel_accuracy(model, loader, device):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            pred = model(x).argmax(dim=1)
            correct += (pred == y).sum().item()
            total += y.numel()
    return correct / total


def main():
    cfg = Config()
    device = cfg.device
    train_loader, val_loader = loaders(cfg)
    model = CoordSegNet(cfg.bands, cfg.n_classes).to(device)
    criterion = nn.CrossEntropyLoss(weight=cfg.class_weights)  # expect: DEV012
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        model.train()
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            loss = criterion(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f} val acc {pixel_accuracy(model, val_loader, device):.3f}")


if __name__ == "__main__":
    main()
