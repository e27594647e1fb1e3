"""Credit-default tabular model: categorical embeddings in a ModuleDict, normalisation stats
stored as buffers inside the model, imbalance handled with pos_weight."""
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import torch
import torch.nn as nn


@dataclass
class Cfg:
    cat_cols: list = field(default_factory=lambda: ["job", "housing", "education"])
    num_cols: list = field(default_factory=lambda: ["age", "income", "debt_ratio", "n_loans"])
    target: str = "default"
    emb_dim: int = 8
    hidden: int = 48
    epochs: int = 4
    batch_size: int = 256
    lr: float = 3e-3
    device: str = "cuda" if torch.cuda.is_available() else "cpu"


def synth(n=3000, seed=1):
    r = np.random.default_rng(seed)
    df = pd.DataFrame({
        "job": r.choice(["admin", "blue", "tech", "services", "retired", "student"], n),
        "housing": r.choice(["own", "rent", "mortgage"], n),
        "education": r.choice(["primary", "secondary", "tertiary", "unknown"], n),
        "age": r.integers(18, 80, n).astype(float),
        "income": r.lognormal(10, 0.5, n),
        "debt_ratio": r.beta(2, 5, n),
        "n_loans": r.poisson(2, n).astype(float),
    })
    z = -3 + 4 * df.debt_ratio + 0.3 * df.n_loans - 0.00002 * df.income
    df["default"] = (r.random(n) < 1 / (1 + np.exp(-z))).astype(np.float32)
    return df


class CreditNet(nn.Module):
    def __init__(self, cfg: Cfg, vocab_sizes: dict, num_mean: np.ndarray, num_std: np.ndarray):
        super().__init__()
        self.cfg = cfg
        self.emb = nn.ModuleDict({c: nn.Embedding(vocab_sizes[c] + 1, cfg.emb_dim) for c in cfg.cat_cols})
        self.register_buffer("num_mean", torch.tensor(num_mean, dtype=torch.float32))
        self.register_buffer("num_std", torch.tensor(num_std, dtype=torch.float32))
        d = cfg.emb_dim * len(cfg.cat_cols) + len(cfg.num_cols)
        self.head = nn.Sequential(nn.Linear(d, cfg.hidden), nn.ReLU(), nn.Linear(cfg.hidden, 1))

    def forward(self, cats, nums):
        nums = (nums - self.num_mean) / self.num_std
        e = [self.emb[c](cats[:, i]) for i, c in enumerate(self.cfg.cat_cols)]
        return self.head(torch.cat(e + [nums], 1)).squeeze(-1)


def to_tensors(df, cfg, vocabs):
    cats = torch.stack([torch.tensor(df[c].map(vocabs[c]).fillna(0).values, dtype=torch.long)
                        for c in cfg.cat_cols], 1)
    nums = torch.tensor(df[cfg.num_cols].values, dtype=torch.float32)
    y = torch.tensor(df[cfg.target].values, dtype=torch.float32)
    return cats, nums, y


def batches(n, bs, shuffle):
    order = torch.randperm(n) if shuffle else torch.arange(n)
    for s in range(0, n, bs):
        yield order[s:s + bs]


def main(cfg: Cfg):
    device = torch.device(cfg.device)
    df = synth()
    tr = df.sample(frac=0.75, random_state=0)
    va = df.drop(tr.index)
    vocabs = {c: {v: i + 1 for i, v in enumerate(tr[c].astype("category").cat.categories)} for c in cfg.cat_cols}

    model = CreditNet(cfg, {c: len(v) for c, v in vocabs.items()},
                      tr[cfg.num_cols].mean().values, tr[cfg.num_cols].std().values).to(device)
    n_pos = tr[cfg.target].sum()
    pos_weight = torch.tensor([(len(tr) - n_pos) / n_pos], device=device)
    criterion = nn.BCEWithLogitsLoss(pos_weight=pos_weight)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)

    tr_c, tr_n, tr_y = (t.to(device) for t in to_tensors(tr, cfg, vocabs))
    va_c, va_n, va_y = to_tensors(va, cfg, vocabs)

    for epoch in range(cfg.epochs):
        model.train()
        for idx in batches(len(tr_y), cfg.batch_size, shuffle=True):
            loss = criterion(model(tr_c[idx], tr_n[idx]), tr_y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()

        model.eval()
        with torch.no_grad():
            logits = model(va_c.to(device), va_n.to(device))
            val_loss = criterion(logits, va_y.to(device)).item()
            prob = torch.sigmoid(logits).cpu().numpy()
        out = va[[cfg.target]].assign(prob=prob)
        top_decile = out.nlargest(len(out) // 10, "prob")[cfg.target].mean()
        print(f"epoch {epoch}: val_loss={val_loss:.4f} base_rate={out[cfg.target].mean():.3f} "
              f"top_decile_rate={top_decile:.3f}")


if __name__ == "__main__":
    main(Cfg())
