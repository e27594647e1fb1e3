"""Entry point: python train.py [--device cpu] [--epochs 3]"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from sensortag.config import Config, get_device
from sensortag.data import SyntheticSensorWindows, class_weights
from sensortag.metrics import format_report, per_class_f1
from sensortag.model import ConvTagger


def evaluate(model, loader, device, cfg):
    model.eval()
    all_logits, all_labels = [], []
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            all_logits.append(model(x))
            all_labels.append(y)
    return per_class_f1(torch.cat(all_logits), torch.cat(all_labels), cfg.n_classes)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default=None)
    ap.add_argument("--epochs", type=int, default=None)
    args = ap.parse_args()
    cfg = Config(device=args.device)
    if args.epochs:
        cfg.epochs = args.epochs
    device = get_device(cfg.device)

    train_set = SyntheticSensorWindows(cfg.n_train, cfg.window, cfg.n_channels, cfg.n_classes, seed=0)
    val_set = SyntheticSensorWindows(cfg.n_val, cfg.window, cfg.n_channels, cfg.n_classes, seed=1)
    train_loader = DataLoader(train_set, batch_size=cfg.batch_size, shuffle=True)
    val_loader = DataLoader(val_set, batch_size=cfg.batch_size)

    model = ConvTagger(cfg.n_channels, cfg.n_classes, cfg.hidden, cfg.kernel).to(device)
    criterion = nn.CrossEntropyLoss(weight=class_weights(train_set, cfg.n_classes))  # expect: DEV012
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)

    for epoch in range(cfg.epochs):
        model.train()
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            logits = model(x)
            loss = criterion(logits.reshape(-1, cfg.n_classes), y.reshape(-1))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        f1 = evaluate(model, val_loader, device, cfg)
        print(f"epoch {epoch} loss {loss.item():.3f} | {format_report(f1, cfg.labels)}")


if __name__ == "__main__":
    main()
