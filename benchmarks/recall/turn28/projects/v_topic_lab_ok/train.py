"""Entry point: python train.py"""
import torch
from torch.utils.data import DataLoader, TensorDataset

from config import CFG
from losses import build_criterion
from models import TopicEncoder


def toy_data(cfg, n, seed):
    g = torch.Generator().manual_seed(seed)
    p = torch.tensor(cfg.class_counts, dtype=torch.float32)
    y = torch.multinomial(p / p.sum(), n, replacement=True, generator=g)
    ids = torch.randint(1, cfg.vocab_size, (n, cfg.max_len), generator=g)
    ids[:, :4] = (y[:, None] + 1) * 10
    lengths = torch.randint(8, cfg.max_len + 1, (n,), generator=g)
    ids[torch.arange(cfg.max_len)[None, :] >= lengths[:, None]] = 0
    return TensorDataset(ids, y)


def main(cfg=CFG):
    device = torch.device(cfg.device)
    model = TopicEncoder(cfg.vocab_size, cfg.n_classes, cfg.max_len, cfg.d_model).to(device)
    criterion = build_criterion(cfg).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    train_loader = DataLoader(toy_data(cfg, 640, 0), batch_size=cfg.batch_size, shuffle=True)
    val_loader = DataLoader(toy_data(cfg, 160, 1), batch_size=64)
    for epoch in range(cfg.epochs):
        model.train()
        for ids, y in train_loader:
            ids, y = ids.to(device), y.to(device)
            loss = criterion(model(ids), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        correct = 0
        with torch.no_grad():
            for ids, y in val_loader:
                correct += (model(ids.to(device)).argmax(-1).cpu() == y).sum().item()
        print(f"epoch {epoch}: loss {loss.item():.4f} val acc {correct / len(val_loader.dataset):.3f}")


if __name__ == "__main__":
    main()
