"""Train the k folds in parallel, one process per fold (one fold per GPU on the 4-GPU box).

1. pretrain once on all rows (self-supervised-ish: denoise the features)
2. each fold process warm-starts from that checkpoint - weights *and* optimizer
   moments - and fine-tunes the regression head
3. the parent gathers out-of-fold predictions

    python h_parallel_folds_spawn.py --folds 4
"""
import argparse
import os
import tempfile

import numpy as np
import torch
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F


class TabularNet(nn.Module):
    def __init__(self, n_features, hidden=64):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Linear(n_features, hidden), nn.SiLU(), nn.LayerNorm(hidden),
            nn.Linear(hidden, hidden), nn.SiLU(),
        )
        self.reconstruct = nn.Linear(hidden, n_features)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.head(self.encoder(x)).squeeze(-1)

    def denoise(self, x):
        return self.reconstruct(self.encoder(x))


def make_data(n=600, n_features=16, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, n_features)).astype(np.float32)
    y = (np.sin(X[:, 0]) + 0.5 * X[:, 1] * X[:, 2] + 0.1 * rng.normal(size=n)).astype(np.float32)
    return X, y


def pretrain(X, path, epochs=3, lr=1e-3):
    model = TabularNet(X.shape[1])
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    x = torch.from_numpy(X)
    for _ in range(epochs):
        for idx in torch.randperm(len(x)).split(64):
            xb = x[idx]
            noisy = xb + 0.3 * torch.randn_like(xb)
            loss = F.mse_loss(model.denoise(noisy), xb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, path)


def run_fold(fold, args, X, y, folds, workdir):
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")  # expect: DEV013
    torch.manual_seed(fold)
    val_idx = folds[fold]
    tr_idx = np.concatenate([f for k, f in enumerate(folds) if k != fold])

    model = TabularNet(X.shape[1])
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    ckpt = torch.load(os.path.join(workdir, "pretrain.pt"), map_location="cpu")
    model.load_state_dict(ckpt["model"])
    optimizer.load_state_dict(ckpt["optimizer"])  # expect: DEV017
    model.to(device)

    xtr = torch.from_numpy(X[tr_idx]).to(device)
    ytr = torch.from_numpy(y[tr_idx]).to(device)
    xva = torch.from_numpy(X[val_idx]).to(device)
    for epoch in range(args.epochs):
        model.train()
        for idx in torch.randperm(len(xtr), device=device).split(64):
            loss = F.mse_loss(model(xtr[idx]), ytr[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    model.eval()
    with torch.no_grad():
        pred = model(xva).cpu()
    torch.save({"val_idx": torch.from_numpy(val_idx), "pred": pred}, os.path.join(workdir, f"oof_{fold}.pt"))
    rmse = torch.sqrt(torch.mean((pred - torch.from_numpy(y[val_idx])) ** 2)).item()
    print(f"[fold {fold}] pid {os.getpid()} device {device} rmse {rmse:.4f}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--folds", type=int, default=3)
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--lr", type=float, default=1e-3)
    args = ap.parse_args()

    X, y = make_data()
    perm = np.random.default_rng(0).permutation(len(X))
    folds = np.array_split(perm, args.folds)

    with tempfile.TemporaryDirectory() as workdir:
        pretrain(X, os.path.join(workdir, "pretrain.pt"))
        mp.spawn(run_fold, args=(args, X, y, folds, workdir), nprocs=args.folds, join=True)

        oof = np.zeros_like(y)
        for fold in range(args.folds):
            part = torch.load(os.path.join(workdir, f"oof_{fold}.pt"), map_location="cpu")
            oof[part["val_idx"].numpy()] = part["pred"].numpy()
    print(f"OOF RMSE {np.sqrt(np.mean((oof - y) ** 2)):.4f}")


if __name__ == "__main__":
    main()
