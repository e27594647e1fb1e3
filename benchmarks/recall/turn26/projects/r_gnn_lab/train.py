"""Entry point: python train.py"""
import torch
import torch.nn.functional as F

from config import TrainConfig
from data import build_graph
from metrics import confusion_report
from models import GCN


def main():
    cfg = TrainConfig()
    torch.manual_seed(cfg.seed)
    x, edge_index, y, train_idx, test_idx = build_graph(cfg)
    x, edge_index, y = x.to(cfg.device), edge_index.to(cfg.device), y.to(cfg.device)

    model = GCN(cfg.num_feats, cfg.hidden, cfg.num_classes).to(cfg.device)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    for epoch in range(cfg.epochs):
        model.train()
        out = model(x, edge_index)
        loss = F.cross_entropy(out[train_idx], y[train_idx])
        opt.zero_grad()
        loss.backward()
        opt.step()

    model.eval()
    with torch.no_grad():
        logits = model(x, edge_index)
    acc, per_class, _ = confusion_report(logits[test_idx], y[test_idx], cfg.num_classes)
    print(f"test acc {acc:.3f}", per_class.round(2))


if __name__ == "__main__":
    main()
