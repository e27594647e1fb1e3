"""5-fold CV for the multi-label tagging MLP (imbalanced labels -> per-fold pos_weight).

python h_kfold_multilabel_cv.py --folds 5 --epochs 8
"""
import argparse
import copy

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--folds", type=int, default=4)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--cpu", action="store_true")
    return p.parse_args()


def make_data(n=320, n_features=20, n_labels=6, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, n_features)).astype(np.float32)
    W = rng.normal(size=(n_features, n_labels))
    bias = np.linspace(-2.5, 0.0, n_labels)  # later labels are more frequent
    Y = (X @ W / np.sqrt(n_features) + bias + rng.normal(scale=0.5, size=(n, n_labels)) > 0)
    return X, Y.astype(np.float32)


def kfold_indices(n, k, seed):
    perm = np.random.default_rng(seed).permutation(n)
    folds = np.array_split(perm, k)
    for i in range(k):
        val = folds[i]
        train = np.concatenate([folds[j] for j in range(k) if j != i])
        yield i, train, val


class Tagger(nn.Module):
    def __init__(self, n_in, n_out, hidden):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(n_in, hidden), nn.BatchNorm1d(hidden), nn.ReLU(),
            nn.Dropout(0.2), nn.Linear(hidden, hidden), nn.ReLU(),
        )
        self.out = nn.Linear(hidden, n_out)

    def forward(self, x):
        return self.out(self.body(x))


def auc_score(y_true, y_score):
    # Mann-Whitney U formulation, no sklearn on the cluster image
    order = np.argsort(y_score)
    ranks = np.empty(len(y_score))
    ranks[order] = np.arange(1, len(y_score) + 1)
    n_pos = y_true.sum()
    n_neg = len(y_true) - n_pos
    if n_pos == 0 or n_neg == 0:
        return float("nan")
    return (ranks[y_true == 1].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def predict(model, loader, device):
    model.eval()
    outs = []
    with torch.no_grad():
        for xb, _ in loader:
            outs.append(torch.sigmoid(model(xb.to(device))))
    return torch.cat(outs).numpy()  # expect: DEV011


def run_fold(fold, X, Y, tr_idx, va_idx, args, device):
    train_ds = TensorDataset(torch.from_numpy(X[tr_idx]), torch.from_numpy(Y[tr_idx]))
    val_ds = TensorDataset(torch.from_numpy(X[va_idx]), torch.from_numpy(Y[va_idx]))
    train_loader = DataLoader(train_ds, batch_size=args.batch_size, shuffle=True, drop_last=True)
    val_loader = DataLoader(val_ds, batch_size=128)

    model = Tagger(X.shape[1], Y.shape[1], args.hidden).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)

    # rare labels get up-weighted, computed on this fold's training split only
    pos = Y[tr_idx].sum(0)
    neg = len(tr_idx) - pos
    pos_weight = torch.tensor(neg / np.clip(pos, 1.0, None), dtype=torch.float32)
    criterion = nn.BCEWithLogitsLoss(pos_weight=pos_weight)  # expect: DEV012

    best_auc, best_state = -1.0, None
    for epoch in range(args.epochs):
        model.train()
        for xb, yb in train_loader:
            xb, yb = xb.to(device), yb.to(device)
            optimizer.zero_grad()
            loss = criterion(model(xb), yb)
            loss.backward()
            optimizer.step()

        probs = predict(model, val_loader, device)
        aucs = [auc_score(Y[va_idx][:, j], probs[:, j]) for j in range(Y.shape[1])]
        macro = float(np.nanmean(aucs))
        if macro > best_auc:
            best_auc, best_state = macro, copy.deepcopy(model.state_dict())
        print(f"fold {fold} epoch {epoch} loss {loss.item():.4f} macro-AUC {macro:.4f}")

    model.load_state_dict(best_state)
    return best_auc, predict(model, val_loader, device)


def main():
    args = get_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() and not args.cpu else "cpu")
    X, Y = make_data(seed=args.seed)

    oof = np.zeros_like(Y)
    scores = []
    for fold, tr_idx, va_idx in kfold_indices(len(X), args.folds, args.seed):
        best, val_probs = run_fold(fold, X, Y, tr_idx, va_idx, args, device)
        oof[va_idx] = val_probs
        scores.append(best)

    print("fold AUCs:", " ".join(f"{s:.4f}" for s in scores))
    print(f"CV macro-AUC {np.mean(scores):.4f} +- {np.std(scores):.4f}")
    oof_auc = np.nanmean([auc_score(Y[:, j], oof[:, j]) for j in range(Y.shape[1])])
    print(f"OOF macro-AUC {oof_auc:.4f}")


if __name__ == "__main__":
    main()
