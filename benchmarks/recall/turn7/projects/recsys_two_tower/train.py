"""Train the two-tower model with a binary cross-entropy on sampled negatives."""
import torch
import torch.nn.functional as F

from config import RunConfig
from data import loader
from evaluate import hit_rate
from model import TwoTower


def main():
    cfg = RunConfig()
    model = TwoTower(cfg.n_users, cfg.n_items, cfg.dim).to(cfg.device)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        model.train()
        for users, items, labels in loader(cfg):
            users, items, labels = users.to(cfg.device), items.to(cfg.device), labels.to(cfg.device)
            loss = F.binary_cross_entropy_with_logits(model(users, items), labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, hit_rate(model, loader(cfg, shuffle=False), cfg.device))


if __name__ == "__main__":
    main()
