"""DeepFM for CTR prediction on synthetic categorical + dense features.

    python h_deepfm_field_embeddings.py --epochs 3 --embed-dim 8
"""
import argparse
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

FIELD_DIMS = [50, 20, 12, 7, 100]  # user_bucket, site, hour, weekday, ad_id
N_DENSE = 4


class FeaturesLinear(nn.Module):
    def __init__(self, field_dims):
        super().__init__()
        self.fc = nn.ModuleList([nn.Embedding(d, 1) for d in field_dims])
        self.bias = nn.Parameter(torch.zeros(1))

    def forward(self, x_cat):
        return sum(emb(x_cat[:, i]) for i, emb in enumerate(self.fc)).squeeze(-1) + self.bias


class DeepFM(nn.Module):
    def __init__(self, field_dims, n_dense, embed_dim=8, mlp_dims=(64, 32), dropout=0.2):
        super().__init__()
        self.linear = FeaturesLinear(field_dims)
        # one table per field so rare fields can get their own size later
        self.embeddings = [nn.Embedding(d, embed_dim) for d in field_dims]  # expect: DEV009
        for emb in self.embeddings:
            nn.init.xavier_uniform_(emb.weight)
        self.dense_proj = nn.Linear(n_dense, embed_dim)
        layers, d_in = [], (len(field_dims) + 1) * embed_dim
        for d in mlp_dims:
            layers += [nn.Linear(d_in, d), nn.BatchNorm1d(d), nn.ReLU(), nn.Dropout(dropout)]
            d_in = d
        layers.append(nn.Linear(d_in, 1))
        self.mlp = nn.Sequential(*layers)

    def forward(self, x_cat, x_dense):
        embs = [emb(x_cat[:, i]) for i, emb in enumerate(self.embeddings)]
        embs.append(self.dense_proj(x_dense))
        e = torch.stack(embs, 1)  # (B, F+1, k)
        square_of_sum = e.sum(1).pow(2)
        sum_of_square = e.pow(2).sum(1)
        fm = 0.5 * (square_of_sum - sum_of_square).sum(1)
        deep = self.mlp(e.flatten(1)).squeeze(-1)
        return self.linear(x_cat) + fm + deep


def make_data(n=4000, seed=0):
    rng = np.random.default_rng(seed)
    x_cat = np.stack([rng.integers(0, d, n) for d in FIELD_DIMS], 1)
    x_dense = rng.normal(size=(n, N_DENSE)).astype(np.float32)
    logit = (0.8 * (x_cat[:, 2] >= 8) - 0.6 * (x_cat[:, 3] >= 5)
             + 0.5 * np.sin(x_cat[:, 4]) + 0.7 * x_dense[:, 0] - 1.0)
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(np.float32)
    return (torch.from_numpy(x_cat).long(), torch.from_numpy(x_dense), torch.from_numpy(y))


def logloss_and_auc(model, loader, device):
    model.eval()
    ys, ps = [], []
    with torch.no_grad():
        for x_cat, x_dense, y in loader:
            p = torch.sigmoid(model(x_cat.to(device), x_dense.to(device)))
            ps.append(p.cpu())
            ys.append(y)
    y, p = torch.cat(ys).numpy(), torch.cat(ps).numpy().clip(1e-7, 1 - 1e-7)
    ll = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
    order = np.argsort(p)
    ranks = np.empty(len(p))
    ranks[order] = np.arange(1, len(p) + 1)
    n_pos = y.sum()
    auc = (ranks[y == 1].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * (len(y) - n_pos))
    return ll, auc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--embed-dim", type=int, default=8)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--gpu", action="store_true", default=torch.cuda.is_available())
    args = ap.parse_args()
    torch.manual_seed(0)
    device = torch.device("cuda" if args.gpu else "cpu")

    x_cat, x_dense, y = make_data()
    split = int(0.8 * len(y))
    train_loader = DataLoader(TensorDataset(x_cat[:split], x_dense[:split], y[:split]),
                              batch_size=args.batch_size, shuffle=True)
    val_loader = DataLoader(TensorDataset(x_cat[split:], x_dense[split:], y[split:]), batch_size=1024)

    model = DeepFM(FIELD_DIMS, N_DENSE, args.embed_dim)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=1e-6)
    criterion = nn.BCEWithLogitsLoss()

    for epoch in range(args.epochs):
        t0 = time.time()
        model.train()
        for step, (xc, xd, yb) in enumerate(train_loader):
            model.to(device)  # expect: DEV007
            xc, xd, yb = xc.to(device), xd.to(device), yb.to(device)
            loss = criterion(model(xc, xd), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        ll, auc = logloss_and_auc(model, val_loader, device)
        print(f"epoch {epoch}: train loss {loss.item():.4f} val logloss {ll:.4f} "
              f"val AUC {auc:.4f} ({time.time() - t0:.1f}s)")


if __name__ == "__main__":
    main()
