"""Global magnitude pruning followed by masked fine-tuning; can resume a pruned run."""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def build_model():
    return nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 10))


def magnitude_masks(model, sparsity):
    weights = [p for n, p in model.named_parameters() if n.endswith("weight")]
    flat = torch.cat([w.detach().abs().flatten() for w in weights])
    threshold = torch.quantile(flat, sparsity)
    masks = {}
    for name, p in model.named_parameters():
        if name.endswith("weight"):
            masks[name] = (p.detach().abs() > threshold).to(p.dtype)
    return masks


def apply_masks(model, masks):
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name in masks:
                p.mul_(masks[name])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sparsity", type=float, default=0.8)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--ckpt", default="pruned_ckpt_ok.pt")
    ap.add_argument("--resume", action="store_true")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    model = build_model().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    start_epoch = 0
    if args.resume and os.path.exists(args.ckpt):
        state = torch.load(args.ckpt, map_location=device)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        start_epoch = state["epoch"] + 1

    masks = magnitude_masks(model, args.sparsity)
    apply_masks(model, masks)

    data = TensorDataset(torch.randn(512, 32), torch.randint(0, 10, (512,)))
    loader = DataLoader(data, batch_size=64, shuffle=True)
    model.train()
    for epoch in range(start_epoch, start_epoch + args.epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            apply_masks(model, masks)
        kept = sum(int(m.sum()) for m in masks.values())
        total = sum(m.numel() for m in masks.values())
        print(f"epoch {epoch} loss {loss.item():.4f} density {kept / total:.2f}")
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, args.ckpt)


if __name__ == "__main__":
    main()
