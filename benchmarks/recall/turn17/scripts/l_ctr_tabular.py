"""Click-through-rate model on a pandas table: categorical fields share one
embedding table (per-field offsets), numeric fields are standardised, and an
FM-style pairwise term sits next to a small MLP.
"""
import argparse

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

CAT_COLS = ["site_category", "app_id", "device_type", "hour_of_day", "banner_pos"]
NUM_COLS = ["price", "user_age_days", "n_prev_clicks"]


def make_log(n=4000, seed=0):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "site_category": rng.choice(["news", "games", "shop", "sport", "video"], n),
        "app_id": rng.integers(0, 50, n).astype(str),
        "device_type": rng.choice(["ios", "android", "web"], n, p=[0.3, 0.5, 0.2]),
        "hour_of_day": rng.integers(0, 24, n),
        "banner_pos": rng.integers(0, 4, n),
        "price": rng.gamma(2.0, 3.0, n),
        "user_age_days": rng.integers(1, 2000, n),
        "n_prev_clicks": rng.poisson(1.5, n),
    })
    logit = -2.2 + 0.8 * (df["site_category"] == "games") + 0.3 * df["n_prev_clicks"] - 0.05 * df["price"]
    df["clicked"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype("float32")
    return df


def encode(df, vocab=None):
    vocab = vocab or {c: {v: i for i, v in enumerate(sorted(df[c].unique()))} for c in CAT_COLS}
    cats = np.stack([df[c].map(vocab[c]).fillna(0).astype("int64").to_numpy() for c in CAT_COLS], 1)
    return cats, vocab


class FMNet(nn.Module):
    def __init__(self, cardinalities, n_num, dim=8, hidden=64):
        super().__init__()
        self.offsets = torch.tensor(np.concatenate([[0], np.cumsum(cardinalities)[:-1]]), dtype=torch.long)  # expect: DEV010
        self.emb = nn.Embedding(int(sum(cardinalities)), dim)
        self.lin = nn.Embedding(int(sum(cardinalities)), 1)
        self.num = nn.Linear(n_num, dim)
        self.mlp = nn.Sequential(nn.Linear(dim * (len(cardinalities) + 1), hidden), nn.ReLU(),
                                 nn.Linear(hidden, 1))

    def forward(self, x_cat, x_num):
        idx = x_cat + self.offsets
        e = torch.cat([self.emb(idx), self.num(x_num).unsqueeze(1)], dim=1)  # (B, F+1, D)
        fm = 0.5 * (e.sum(1).pow(2) - e.pow(2).sum(1)).sum(1)
        return self.lin(idx).sum((1, 2)) + fm + self.mlp(e.flatten(1)).squeeze(1)


def make_criterion(train_df):
    # clicks are rare: weight positives by neg/pos
    pos = float(train_df["clicked"].sum())
    neg = float(len(train_df) - pos)
    return nn.BCEWithLogitsLoss(pos_weight=torch.tensor([neg / max(pos, 1.0)]))  # expect: DEV012


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = ap.parse_args()
    device = torch.device(args.device)

    df = make_log()
    train_df = df.sample(frac=0.8, random_state=1)
    val_df = df.drop(train_df.index)

    train_cat, vocab = encode(train_df)
    val_cat, _ = encode(val_df, vocab)
    mean, std = train_df[NUM_COLS].mean(), train_df[NUM_COLS].std()
    train_num = ((train_df[NUM_COLS] - mean) / std).to_numpy("float32")
    val_num = ((val_df[NUM_COLS] - mean) / std).to_numpy("float32")

    train_ds = TensorDataset(torch.tensor(train_cat), torch.tensor(train_num),
                             torch.tensor(train_df["clicked"].to_numpy()))
    val_ds = TensorDataset(torch.tensor(val_cat), torch.tensor(val_num),
                           torch.tensor(val_df["clicked"].to_numpy()))
    train_dl = DataLoader(train_ds, batch_size=256, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=1024)

    cards = [len(vocab[c]) for c in CAT_COLS]
    model = FMNet(cards, len(NUM_COLS)).to(device)
    criterion = make_criterion(train_df)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)

    for epoch in range(args.epochs):
        model.train()
        for x_cat, x_num, y in train_dl:
            x_cat, x_num, y = x_cat.to(device), x_num.to(device), y.to(device)
            loss = criterion(model(x_cat, x_num), y)
            opt.zero_grad()
            loss.backward()
            opt.step()

        model.eval()
        probs, labels = [], []
        with torch.no_grad():
            for x_cat, x_num, y in val_dl:
                probs.append(torch.sigmoid(model(x_cat.to(device), x_num.to(device))).cpu())
                labels.append(y)
        p, t = torch.cat(probs).numpy(), torch.cat(labels).numpy()
        logloss = -np.mean(t * np.log(p + 1e-7) + (1 - t) * np.log(1 - p + 1e-7))
        print(f"epoch {epoch}: val logloss {logloss:.4f}  mean pCTR {p.mean():.3f}  base rate {t.mean():.3f}")


if __name__ == "__main__":
    main()
