"""Train and evaluate the session recommender: python main.py [--resume ckpt] [--cpu]"""
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from reckit import checkpoint
from reckit.config import from_args
from reckit.data import Sessions
from reckit.metrics import rank_histogram, ranking_metrics
from reckit.model import GRU4Rec
from reckit.sampling import NegativeSampler


def to_device(batch, device):
    return {k: v.to(device, non_blocking=True) for k, v in batch.items()}


def main():
    cfg = from_args()
    device = cfg.device
    train_set = Sessions(cfg.n_items, max_len=cfg.max_len)
    test_set = Sessions(cfg.n_items, n_sessions=64, max_len=cfg.max_len, seed=1)
    train_loader = DataLoader(train_set, batch_size=cfg.batch_size, shuffle=True)
    test_loader = DataLoader(test_set, batch_size=64)

    model = GRU4Rec(cfg.n_items, cfg.dim, cfg.max_len).to(device)
    sampler = NegativeSampler(train_set.item_counts(cfg.n_items), cfg.popularity_alpha).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    start = checkpoint.restore(cfg.resume, model, optimizer, device) if cfg.resume else 0

    for epoch in range(start, start + cfg.epochs):
        model.train()
        for batch in train_loader:
            batch = to_device(batch, device)
            session = model(batch["seq"])
            pos = model.score(session, batch["target"].unsqueeze(1))
            neg = model.score(session, sampler(session.size(0), cfg.negatives))
            loss = -F.logsigmoid(pos - neg).mean()  # BPR against each negative
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        checkpoint.save(cfg.ckpt, model, optimizer, epoch)

        model.eval()
        with torch.no_grad():
            batch = to_device(next(iter(test_loader)), device)
            scores = model.score_all(model(batch["seq"]))
            metrics = ranking_metrics(scores, batch["target"])
            hist = rank_histogram(scores, batch["target"])
        print(f"epoch {epoch} bpr {loss.item():.4f} hit@10 {metrics['hit']:.3f} "
              f"ndcg@10 {metrics['ndcg']:.3f} rank hist {hist.tolist()}")


if __name__ == "__main__":
    main()
