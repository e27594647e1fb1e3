import argparse
import os

import torch
import torch.nn.functional as F

from config import Config
from data import make_loaders
from models import build_model


def warm_start(model, path):
    state = torch.load(path)  # expect: DEV008
    own = model.state_dict()
    kept = {k: v for k, v in state["model"].items() if k in own and own[k].shape == v.shape}
    model.load_state_dict(kept, strict=False)
    print(f"warm start: {len(kept)}/{len(own)} tensors from {path}")


def evaluate(model, loader, device):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for feats, labels in loader:
            feats, labels = feats.to(device), labels.to(device)
            correct += (model(feats).argmax(dim=1) == labels).sum().item()
            total += labels.numel()
    return correct / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--init-from", default="")
    ap.add_argument("--epochs", type=int, default=None)
    args = ap.parse_args()
    cfg = Config(init_from=args.init_from)
    if args.epochs:
        cfg.epochs = args.epochs

    device = torch.device(cfg.device)
    train_loader, val_loader = make_loaders(cfg)
    model = build_model(cfg)
    if cfg.init_from and os.path.exists(cfg.init_from):
        warm_start(model, cfg.init_from)
    model.to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr)

    for epoch in range(cfg.epochs):
        model.train()
        for feats, labels in train_loader:
            feats, labels = feats.to(device), labels.to(device)
            loss = F.cross_entropy(model(feats), labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.3f} val acc {evaluate(model, val_loader, device):.3f}")
    torch.save({"model": model.state_dict(), "cfg": vars(cfg)}, cfg.out)


if __name__ == "__main__":
    main()
