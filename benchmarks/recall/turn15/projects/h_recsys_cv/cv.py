"""k-fold (over users) model selection for the embedding size.

    python cv.py --folds 3 --dims 16 32
"""
import argparse
import os
import tempfile

import numpy as np
import torch

from recsys.data import split_last, synthetic_interactions, user_folds
from recsys.metrics import hit_rate_at_k
from recsys.train import FoldConfig, fit_fold, load_best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--folds", type=int, default=3)
    ap.add_argument("--dims", type=int, nargs="+", default=[16, 32])
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--cpu", action="store_true")
    args = ap.parse_args()

    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() and not args.cpu else "cpu")
    pairs, item_cat = synthetic_interactions()
    n_users, n_items = int(pairs[:, 0].max()) + 1, len(item_cat)

    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for dim in args.dims:
            cfg = FoldConfig(dim=dim, epochs=args.epochs)
            scores = []
            for fold, train_pairs, val_pairs in user_folds(pairs, args.folds):
                history, targets = split_last(val_pairs, seed=fold)
                ckpt = os.path.join(tmp, f"d{dim}_f{fold}.pt")
                fit_fold(cfg, train_pairs, history, targets, n_users, n_items, item_cat, device, ckpt)
                best = load_best(ckpt, n_users, n_items, item_cat, dim, device)
                seen = {}
                for u, i in history:
                    seen.setdefault(int(u), set()).add(int(i))
                hr = hit_rate_at_k(best, sorted(targets), targets, seen, n_items, device)
                scores.append(hr)
                print(f"dim {dim} fold {fold}: HR@10 {hr:.3f}")
            results[dim] = float(np.mean(scores))
    best_dim = max(results, key=results.get)
    print("mean HR@10 per dim:", {d: round(s, 3) for d, s in results.items()}, "-> pick", best_dim)


if __name__ == "__main__":
    main()
