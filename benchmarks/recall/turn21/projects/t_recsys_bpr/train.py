"""Train the implicit-feedback recommender.  python train.py [--cpu]"""
import argparse

import torch
from torch.utils.data import DataLoader

from recsys.config import Config, pick_device
from recsys.data import PointwiseSampler, flatten, synthetic_interactions
from recsys.losses import build_loss
from recsys.metrics import recall_at_k
from recsys.model import BiasedMF


def evaluate(model, liked, test, cfg, device):
    model.eval()
    users = torch.arange(cfg.n_users, device=device)
    scores = model.score_all(users)
    return recall_at_k(scores, users, test, liked, k=cfg.k)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cpu", action="store_true")
    args = ap.parse_args()
    cfg = Config()
    device = pick_device(prefer_gpu=not args.cpu)

    liked, test = synthetic_interactions(cfg)
    loader = DataLoader(PointwiseSampler(liked, cfg), batch_size=cfg.batch_size, shuffle=True)
    model = BiasedMF(cfg.n_users, cfg.n_items, cfg.dim).to(device)
    criterion = build_loss(cfg)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)

    for epoch in range(cfg.epochs):
        model.train()
        total = 0.0
        for batch in loader:
            users, items, labels = (t.to(device) for t in flatten(batch))
            loss = criterion(model(users, items), labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total / len(loader):.4f} recall@{cfg.k} {evaluate(model, liked, test, cfg, device):.3f}")


if __name__ == "__main__":
    main()
