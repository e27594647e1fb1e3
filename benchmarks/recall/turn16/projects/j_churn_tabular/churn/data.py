import numpy as np
import pandas as pd
import torch
from torch.utils.data import TensorDataset


def synthetic_customers(n=2500, seed=0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "plan": rng.choice(["lite", "std", "max"], n, p=[0.5, 0.35, 0.15]),
        "region": rng.choice(list("ABCDE"), n),
        "payment": rng.choice(["card", "invoice", "paypal"], n),
        "tenure": rng.integers(1, 60, n).astype(float),
        "monthly": rng.normal(25, 8, n).clip(5),
        "tickets": rng.poisson(1.0, n).astype(float),
    })
    z = -1.8 + 0.7 * df.tickets - 0.04 * df.tenure + 0.5 * (df.payment == "invoice")
    df["churned"] = (rng.random(n) < 1 / (1 + np.exp(-z))).astype(int)
    return df


def build_vocabs(df, cat_cols):
    return {c: {v: i + 1 for i, v in enumerate(sorted(df[c].unique()))} for c in cat_cols}


def to_dataset(df, cfg, vocabs) -> TensorDataset:
    cats = np.stack([df[c].map(vocabs[c]).fillna(0).to_numpy(dtype=np.int64) for c in cfg.cat_cols], 1)
    nums = df[cfg.num_cols].to_numpy(dtype=np.float32, copy=True)
    y = df[cfg.target].to_numpy(dtype=np.int64, copy=True)
    return TensorDataset(torch.from_numpy(cats), torch.from_numpy(nums), torch.from_numpy(y))


def class_weights(df, target) -> torch.Tensor:
    counts = df[target].value_counts().sort_index()
    return torch.tensor((counts.sum() / (len(counts) * counts)).to_numpy(), dtype=torch.float32)
