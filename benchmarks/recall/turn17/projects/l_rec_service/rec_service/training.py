import os

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from .features import FeatureSpec, NUMERIC
from .model import RankingModel


def auc(scores: np.ndarray, labels: np.ndarray) -> float:
    order = scores.argsort()
    ranks = np.empty_like(order, dtype=np.float64)
    ranks[order] = np.arange(1, len(scores) + 1)
    pos = labels == 1
    n_pos, n_neg = pos.sum(), (~pos).sum()
    return float((ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / max(n_pos * n_neg, 1))


def train_model(df, device, epochs=3, out_path="artifacts/ranker.pt"):
    train_df = df.sample(frac=0.85, random_state=0)
    val_df = df.drop(train_df.index)
    spec = FeatureSpec.fit(train_df)
    tr_c, tr_n = spec.encode(train_df)
    va_c, va_n = spec.encode(val_df)
    tr_y = torch.from_numpy(train_df["clicked"].to_numpy("float32"))
    loader = DataLoader(TensorDataset(tr_c, tr_n, tr_y), batch_size=256, shuffle=True)

    model = RankingModel(spec.cardinalities, len(NUMERIC), spec.mean, spec.std).to(device)
    pos_rate = float(tr_y.mean())
    criterion = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([(1 - pos_rate) / pos_rate], device=device))
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)

    for epoch in range(epochs):
        model.train()
        for cats, nums, y in loader:
            cats, nums, y = cats.to(device), nums.to(device), y.to(device)
            loss = criterion(model(cats, nums), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            val_scores = model(va_c.to(device), va_n.to(device)).cpu().numpy()
        print(f"epoch {epoch}: loss {loss.item():.4f} val auc {auc(val_scores, val_df['clicked'].to_numpy()):.3f}")

    os.makedirs(os.path.dirname(out_path) or ".", exist_ok=True)
    torch.save({"state_dict": model.state_dict(), "spec": spec.to_dict()}, out_path)
    return out_path
