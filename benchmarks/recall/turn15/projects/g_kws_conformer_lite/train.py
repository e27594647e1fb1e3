"""Train the keyword spotter.

    python train.py --epochs 2
    python train.py --epochs 4 --resume kws_last.pt
"""
import argparse
import copy
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from kws import KeywordSpotter, KWSConfig
from kws.config import KEYWORDS
from kws.data import SyntheticCommands, collate
from kws.metrics import ConfusionMeter


def build(cfg, device):
    model = KeywordSpotter(cfg, len(KEYWORDS)).to(device)
    ema = copy.deepcopy(model).eval().requires_grad_(False)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=1e-2)
    criterion = nn.CrossEntropyLoss(weight=torch.tensor(cfg.class_weights, device=device))
    return model, ema, opt, criterion


def resume(path, model, ema, opt, device):
    if not path or not os.path.isfile(path):
        return 0
    state = torch.load(path, map_location=device)
    model.load_state_dict(state["model"])
    ema.load_state_dict(state["ema"])
    opt.load_state_dict(state["opt"])
    return state["epoch"] + 1


@torch.no_grad()
def evaluate(model, loader, device):
    meter = ConfusionMeter(len(KEYWORDS))
    for wav, lens, labels in loader:
        logits = model(wav.to(device), lens)
        meter.update(logits, labels)
    return meter


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--resume", default="")
    ap.add_argument("--ckpt", default="kws_last.pt")
    args = ap.parse_args()
    cfg = KWSConfig(epochs=args.epochs, resume=args.resume, ckpt=args.ckpt)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    train_dl = DataLoader(SyntheticCommands(cfg, len(KEYWORDS)), batch_size=cfg.batch_size, shuffle=True,
                          collate_fn=collate)
    val_dl = DataLoader(SyntheticCommands(cfg, len(KEYWORDS), n=32, seed=1), batch_size=16, collate_fn=collate)
    model, ema, opt, criterion = build(cfg, device)
    start = resume(cfg.resume, model, ema, opt, device)

    for epoch in range(start, cfg.epochs):
        model.train()
        for wav, lens, labels in train_dl:
            wav, labels = wav.to(device), labels.to(device)
            loss = criterion(model(wav, lens), labels)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            with torch.no_grad():
                for pe, p in zip(ema.parameters(), model.parameters()):
                    pe.mul_(cfg.ema_decay).add_(p, alpha=1 - cfg.ema_decay)
        meter = evaluate(ema, val_dl, device)
        print(f"epoch {epoch} loss {loss.item():.3f} ema val acc {meter.accuracy():.2f}")
        torch.save({"model": model.state_dict(), "ema": ema.state_dict(), "opt": opt.state_dict(),
                    "epoch": epoch}, cfg.ckpt)


if __name__ == "__main__":
    main()
