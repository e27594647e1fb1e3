"""pandas -> tensors. The FeatureSpec is fitted on the training frame and
saved with the model so serving encodes requests exactly the same way."""
from dataclasses import dataclass, field
from typing import Dict, List

import numpy as np
import pandas as pd
import torch

CATEGORICAL = ["user_segment", "item_id", "item_category", "platform"]
NUMERIC = ["item_price", "user_tenure_days", "hour"]


@dataclass
class FeatureSpec:
    vocab: Dict[str, Dict[str, int]] = field(default_factory=dict)
    mean: List[float] = field(default_factory=list)
    std: List[float] = field(default_factory=list)

    @classmethod
    def fit(cls, df: pd.DataFrame) -> "FeatureSpec":
        vocab = {c: {v: i + 1 for i, v in enumerate(sorted(df[c].astype(str).unique()))} for c in CATEGORICAL}
        num = df[NUMERIC].astype("float32")
        return cls(vocab=vocab, mean=num.mean().tolist(), std=(num.std() + 1e-6).tolist())

    @property
    def cardinalities(self) -> List[int]:
        return [len(self.vocab[c]) + 1 for c in CATEGORICAL]   # index 0 = unseen value

    def encode(self, df: pd.DataFrame):
        cats = np.stack([df[c].astype(str).map(self.vocab[c]).fillna(0).to_numpy("int64") for c in CATEGORICAL], 1)
        nums = df[NUMERIC].to_numpy("float32")
        return torch.from_numpy(cats), torch.from_numpy(nums)

    def to_dict(self):
        return {"vocab": self.vocab, "mean": self.mean, "std": self.std}


def synthetic_events(n: int = 6000, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "user_segment": rng.choice(["new", "casual", "loyal", "vip"], n, p=[0.3, 0.4, 0.2, 0.1]),
        "item_id": rng.integers(0, 120, n).astype(str),
        "item_category": rng.choice(["books", "music", "games", "garden"], n),
        "platform": rng.choice(["ios", "android", "web"], n),
        "item_price": rng.lognormal(2.5, 0.6, n).round(2),
        "user_tenure_days": rng.integers(0, 1500, n),
        "hour": rng.integers(0, 24, n),
    })
    z = (-1.8 + 1.1 * (df["user_segment"] == "vip") + 0.6 * (df["item_category"] == "games")
         - 0.03 * df["item_price"] + 0.0004 * df["user_tenure_days"])
    df["clicked"] = (rng.random(n) < 1 / (1 + np.exp(-z))).astype("float32")
    return df
