"""Train a GIN graph classifier.  Usage: python train.py [--epochs N]"""
import argparse
import dataclasses

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from gnncfg import GIN, TrainConfig, collate_graphs, make_dataset


def evaluate(model, loader, device):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for b in loader:
            b = b.to(device)
            pred = model(b.x, b.edge_index, b.batch, b.num_graphs).argmax(-1)
            correct += (pred == b.y).sum().item()
            total += b.num_graphs
    return correct / max(total, 1)


def main(cfg: TrainConfig):
    device = torch.device(cfg.device)
    torch.manual_seed(cfg.seeds[0])
    data = make_dataset(cfg.num_graphs, cfg.num_features, cfg.num_classes, seed=cfg.seeds[0])
    split = int(0.8 * len(data))
    train_loader = DataLoader(data[:split], batch_size=cfg.batch_size, shuffle=True, collate_fn=collate_graphs)
    val_loader = DataLoader(data[split:], batch_size=cfg.batch_size, collate_fn=collate_graphs)

    m = cfg.model
    model = GIN(cfg.num_features, m.hidden, cfg.num_classes, m.num_layers, m.dropout).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        model.train()
        for b in train_loader:
            b = b.to(device)
            loss = F.cross_entropy(model(b.x, b.edge_index, b.batch, b.num_graphs), b.y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f} val acc {evaluate(model, val_loader, device):.3f}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=None)
    args = ap.parse_args()
    cfg = TrainConfig()
    if args.epochs is not None:
        cfg = dataclasses.replace(cfg, epochs=args.epochs)
    main(cfg)
