"""Entry point: python train.py --epochs 3 --rank 4"""
import argparse

import torch

from s_lora_cls.config import TrainConfig
from s_lora_cls.data import make_loaders
from s_lora_cls.engine import evaluate, train_epoch
from s_lora_cls.lora import apply_lora, lora_parameters
from s_lora_cls.model import load_pretrained


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--rank", type=int, default=4)
    ap.add_argument("--lr", type=float, default=2e-3)
    args = ap.parse_args()
    cfg = TrainConfig(epochs=args.epochs, lora_rank=args.rank, lr=args.lr)

    torch.manual_seed(cfg.seed)
    model = load_pretrained(cfg)
    model.to(cfg.device)
    model.requires_grad_(False)
    apply_lora(model, cfg)
    model.classifier.requires_grad_(True)

    params = list(lora_parameters(model)) + list(model.classifier.parameters())
    optimizer = torch.optim.AdamW(params, lr=cfg.lr, weight_decay=0.0)
    train_loader, val_loader = make_loaders(cfg)

    for epoch in range(cfg.epochs):
        loss = train_epoch(model, train_loader, optimizer, cfg.device)
        report = evaluate(model, val_loader, cfg.device)
        print(f"epoch {epoch} train loss {loss:.4f} val acc {report['accuracy']:.3f}")
    print(report["confusion"])


if __name__ == "__main__":
    main()
