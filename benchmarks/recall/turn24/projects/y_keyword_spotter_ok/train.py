"""Entry point: python train.py [--device cpu] [--resume]"""
import argparse
import os

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from kws.config import Config, get_device
from kws.data import SyntheticUtterances, collate, label_smoothing_targets
from kws.metrics import accuracy_from_confusion, confusion
from kws.model import KeywordGRU
from kws.utils import AverageMeter, to_device


def feature_stats(dataset):
    allf = torch.cat([f for f, _ in dataset.items])
    return allf.mean(0), allf.std(0)


def run_epoch(model, loader, device, cfg, optimizer=None):
    train = optimizer is not None
    model.train(train)
    meter = AverageMeter()
    cm = 0
    for batch in loader:
        batch = to_device(batch, device)
        with torch.set_grad_enabled(train):
            logits = model(batch["feats"], batch["lengths"])
            target = label_smoothing_targets(batch["label"], cfg.n_keywords)
            loss = torch.sum(-target * F.log_softmax(logits, -1), dim=-1).mean()
        if train:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        meter.update(loss.item(), batch["label"].shape[0])
        cm = cm + confusion(logits, batch["label"], cfg.n_keywords)
    return meter.avg, accuracy_from_confusion(cm)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default=None)
    ap.add_argument("--resume", action="store_true")
    args = ap.parse_args()
    cfg = Config(device=args.device)
    device = get_device(cfg.device)

    train_set = SyntheticUtterances(cfg.n_train, cfg.n_mels, cfg.n_keywords, cfg.min_frames, cfg.max_frames, seed=0)
    val_set = SyntheticUtterances(cfg.n_val, cfg.n_mels, cfg.n_keywords, cfg.min_frames, cfg.max_frames, seed=1)
    train_loader = DataLoader(train_set, batch_size=cfg.batch_size, shuffle=True, collate_fn=collate)
    val_loader = DataLoader(val_set, batch_size=cfg.batch_size, collate_fn=collate)

    mean, std = feature_stats(train_set)
    model = KeywordGRU(cfg.n_mels, cfg.n_keywords, cfg.hidden, mean, std).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    start = 0
    if args.resume and os.path.exists(cfg.ckpt):
        state = torch.load(cfg.ckpt, map_location=device)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        start = state["epoch"] + 1

    for epoch in range(start, start + cfg.epochs):
        tr_loss, tr_acc = run_epoch(model, train_loader, device, cfg, optimizer)
        va_loss, va_acc = run_epoch(model, val_loader, device, cfg)
        print(f"epoch {epoch}: train {tr_loss:.3f}/{tr_acc:.2f}  val {va_loss:.3f}/{va_acc:.2f}")
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, cfg.ckpt)


if __name__ == "__main__":
    main()
