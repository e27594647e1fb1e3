"""Entity-embedding network for a churn-like tabular dataset built in pandas.

Categorical columns get their own nn.Embedding keyed by column name, numeric columns are
standardised; classes are imbalanced so the loss is reweighted from the label counts.
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

CAT_COLS = ["plan", "region", "device_os"]
NUM_COLS = ["tenure_months", "monthly_fee", "support_calls"]
TARGET = "churn"


def make_frame(n=2000, seed=0):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "plan": rng.choice(["basic", "plus", "pro", "family"], n),
        "region": rng.choice(["north", "south", "east", "west", "intl"], n),
        "device_os": rng.choice(["ios", "android", "web"], n, p=[0.4, 0.5, 0.1]),
        "tenure_months": rng.integers(1, 72, n),
        "monthly_fee": rng.normal(30, 10, n).round(2),
        "support_calls": rng.poisson(1.5, n),
    })
    logit = -2.0 + 0.6 * df.support_calls - 0.03 * df.tenure_months + (df.plan == "basic") * 0.8
    df[TARGET] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    return df


class TabularDataset(Dataset):
    def __init__(self, df, encoders, stats):
        self.cats = np.stack([df[c].map(encoders[c]).fillna(0).astype(np.int64).values for c in CAT_COLS], 1)
        nums = df[NUM_COLS].astype(np.float32)
        self.nums = ((nums - stats["mean"]) / stats["std"]).values.astype(np.float32)
        self.y = df[TARGET].values.astype(np.int64)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return torch.from_numpy(self.cats[i]), torch.from_numpy(self.nums[i]), torch.tensor(self.y[i])


class EntityEmbeddingNet(nn.Module):
    def __init__(self, cardinalities, n_num, hidden=64, n_classes=2):
        super().__init__()
        self.embeddings = {  # expect: DEV009
            col: nn.Embedding(card + 1, min(16, (card + 2) // 2)) for col, card in cardinalities.items()
        }
        emb_dim = sum(e.embedding_dim for e in self.embeddings.values())
        self.bn_num = nn.BatchNorm1d(n_num)
        self.mlp = nn.Sequential(
            nn.Linear(emb_dim + n_num, hidden), nn.ReLU(), nn.Dropout(0.1),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, n_classes),
        )

    def forward(self, x_cat, x_num):
        embs = [self.embeddings[col](x_cat[:, i]) for i, col in enumerate(CAT_COLS)]
        x = torch.cat(embs + [self.bn_num(x_num)], dim=1)
        return self.mlp(x)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    df = make_frame()
    train_df = df.sample(frac=0.8, random_state=0)
    valid_df = df.drop(train_df.index)

    encoders = {c: {v: i + 1 for i, v in enumerate(sorted(train_df[c].unique()))} for c in CAT_COLS}
    stats = {"mean": train_df[NUM_COLS].mean(), "std": train_df[NUM_COLS].std()}
    train_dl = DataLoader(TabularDataset(train_df, encoders, stats), batch_size=128, shuffle=True)
    valid_dl = DataLoader(TabularDataset(valid_df, encoders, stats), batch_size=512)

    model = EntityEmbeddingNet({c: len(encoders[c]) for c in CAT_COLS}, len(NUM_COLS)).to(device)

    counts = train_df[TARGET].value_counts().sort_index()
    class_weights = torch.tensor((counts.sum() / (len(counts) * counts)).values, dtype=torch.float32)
    criterion = nn.CrossEntropyLoss(weight=class_weights)  # expect: DEV012
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)

    for epoch in range(3):
        model.train()
        for x_cat, x_num, y in train_dl:
            x_cat, x_num, y = x_cat.to(device), x_num.to(device), y.to(device)
            loss = criterion(model(x_cat, x_num), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        model.eval()
        probs, ys = [], []
        with torch.no_grad():
            for x_cat, x_num, y in valid_dl:
                out = model(x_cat.to(device), x_num.to(device))
                probs.append(out.softmax(1)[:, 1].cpu())
                ys.append(y)
        p = torch.cat(probs).numpy()
        yv = torch.cat(ys).numpy()
        report = pd.DataFrame({"prob": p, "churn": yv})
        report["bucket"] = pd.qcut(report.prob, 4, labels=False, duplicates="drop")
        print(f"epoch {epoch} loss {loss.item():.3f}")
        print(report.groupby("bucket").churn.mean().round(3).to_dict())


if __name__ == "__main__":
    main()
