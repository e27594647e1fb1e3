"""Biased matrix factorisation on an explicit-ratings table (MovieLens layout:
user_id, item_id, rating, timestamp), with a time-based validation split.
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

EMB_DIM = 32
EPOCHS = 4
BATCH = 256
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def load_ratings(n_users=300, n_items=200, n_rows=6000, seed=7):
    rng = np.random.default_rng(seed)
    u_f = rng.normal(size=(n_users, 4))
    i_f = rng.normal(size=(n_items, 4))
    users = rng.integers(0, n_users, n_rows)
    items = rng.integers(0, n_items, n_rows)
    raw = (u_f[users] * i_f[items]).sum(1) + rng.normal(scale=0.5, size=n_rows)
    ratings = np.clip(np.round(3 + raw), 1, 5)
    return pd.DataFrame({
        "user_id": [f"u{u}" for u in users],
        "item_id": [f"m{i}" for i in items],
        "rating": ratings.astype("float32"),
        "timestamp": rng.integers(1_500_000_000, 1_600_000_000, n_rows),
    }).drop_duplicates(["user_id", "item_id"])


class RatingsDataset(Dataset):
    def __init__(self, df):
        self.users = torch.tensor(df["user_idx"].to_numpy(), dtype=torch.long)
        self.items = torch.tensor(df["item_idx"].to_numpy(), dtype=torch.long)
        self.ratings = torch.tensor(df["rating"].to_numpy(), dtype=torch.float32)

    def __len__(self):
        return len(self.ratings)

    def __getitem__(self, i):
        return self.users[i], self.items[i], self.ratings[i]


class BiasedMF(nn.Module):
    def __init__(self, n_users, n_items, dim, global_mean):
        super().__init__()
        self.user_emb = nn.Embedding(n_users, dim)
        self.item_emb = nn.Embedding(n_items, dim)
        self.user_bias = nn.Embedding(n_users, 1)
        self.item_bias = nn.Embedding(n_items, 1)
        self.register_buffer("mu", torch.tensor(global_mean))
        for e in (self.user_emb, self.item_emb):
            nn.init.normal_(e.weight, std=0.05)
        nn.init.zeros_(self.user_bias.weight)
        nn.init.zeros_(self.item_bias.weight)

    def forward(self, u, i):
        dot = (self.user_emb(u) * self.item_emb(i)).sum(-1)
        return self.mu + dot + self.user_bias(u).squeeze(-1) + self.item_bias(i).squeeze(-1)


@torch.no_grad()
def evaluate(model, val_df):
    model.eval()
    users = torch.from_numpy(val_df["user_idx"].to_numpy())  # expect: DEV006
    items = torch.from_numpy(val_df["item_idx"].to_numpy())  # expect: DEV006
    preds = model(users, items).clamp(1, 5)
    out = val_df.assign(pred=preds.numpy())  # expect: DEV011
    rmse = float(np.sqrt(((out["pred"] - out["rating"]) ** 2).mean()))
    return rmse, out


@torch.no_grad()
def recommend(model, user_idx, k, seen):
    # score every item for the users, drop what they've already rated
    idx = torch.as_tensor(user_idx)
    scores = model.user_emb.weight[idx] @ model.item_emb.weight.T + model.item_bias.weight.T
    for row, u in enumerate(user_idx):
        scores[row, list(seen.get(u, ()))] = -float("inf")
    return scores.topk(k, dim=1).indices.cpu().tolist()


def main():
    df = load_ratings()
    df["user_idx"] = df["user_id"].astype("category").cat.codes.astype("int64")
    df["item_idx"] = df["item_id"].astype("category").cat.codes.astype("int64")
    n_users, n_items = df["user_idx"].max() + 1, df["item_idx"].max() + 1

    cutoff = df["timestamp"].quantile(0.9)
    train_df, val_df = df[df["timestamp"] <= cutoff], df[df["timestamp"] > cutoff]
    loader = DataLoader(RatingsDataset(train_df), batch_size=BATCH, shuffle=True)

    model = BiasedMF(n_users, n_items, EMB_DIM, float(train_df["rating"].mean())).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    loss_fn = nn.MSELoss()

    for epoch in range(EPOCHS):
        model.train()
        total = 0.0
        for u, i, r in loader:
            u, i, r = u.to(device), i.to(device), r.to(device)
            pred = model(u, i)
            reg = 1e-4 * (model.user_emb(u).pow(2).sum() + model.item_emb(i).pow(2).sum()) / len(u)
            loss = loss_fn(pred, r) + reg
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(u)
        rmse, _ = evaluate(model, val_df)
        print(f"epoch {epoch}: train mse {total / len(train_df):.4f}  val rmse {rmse:.4f}")

    seen = train_df.groupby("user_idx")["item_idx"].apply(set).to_dict()
    print("top-5 for users 0..2:", recommend(model, [0, 1, 2], 5, seen))


if __name__ == "__main__":
    main()
