import torch
import torch.nn.functional as F

from config import DEVICE, Config, item_popularity
from data import batch_to_device, make_loader
from models import NCF


def train(cfg=Config()):
    ds, loader = make_loader(cfg)
    model = NCF(cfg, item_popularity(ds.items, cfg.n_items, cfg.pop_alpha)).to(DEVICE)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)

    for epoch in range(cfg.epochs):
        model.train()
        total = 0.0
        for batch in loader:
            batch = batch_to_device(batch, DEVICE)
            users, items = batch["user"], batch["item"]
            logits = model(users, items)
            loss = F.binary_cross_entropy_with_logits(logits, batch["click"].float())
            neg_users, neg_items = model.sample_negatives(users)
            neg_logits = model(neg_users, neg_items)
            loss = loss + F.binary_cross_entropy_with_logits(neg_logits, torch.zeros_like(neg_logits))
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total / len(loader):.4f}")
    return model


if __name__ == "__main__":
    train()
