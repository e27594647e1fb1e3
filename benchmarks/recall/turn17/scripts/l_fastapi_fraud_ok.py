"""Transaction fraud scoring API.

    FRAUD_CKPT=fraud_mlp.pt uvicorn l_fastapi_fraud_ok:app --workers 1

The checkpoint holds the MLP weights and the feature normalisation stats
(saved as buffers, so they travel with the state dict).
"""
import os
import threading
from contextlib import asynccontextmanager
from typing import List

import torch
import torch.nn as nn
from fastapi import FastAPI
from pydantic import BaseModel, Field

FEATURES = ["amount", "hour", "merchant_risk", "distance_km", "n_tx_24h", "card_age_days"]
CKPT = os.environ.get("FRAUD_CKPT", "fraud_mlp.pt")
DEVICE = torch.device(os.environ.get("FRAUD_DEVICE") or ("cuda" if torch.cuda.is_available() else "cpu"))


class FraudMLP(nn.Module):
    def __init__(self, n_features=len(FEATURES), hidden=64):
        super().__init__()
        self.register_buffer("mean", torch.zeros(n_features))
        self.register_buffer("std", torch.ones(n_features))
        self.net = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU(), nn.Dropout(0.1),
                                 nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net((x - self.mean) / self.std).squeeze(-1)


class Transaction(BaseModel):
    amount: float = Field(ge=0)
    hour: int = Field(ge=0, le=23)
    merchant_risk: float
    distance_km: float
    n_tx_24h: int
    card_age_days: int


class ScoreBatch(BaseModel):
    transactions: List[Transaction]
    threshold: float = 0.5


class Predictor:
    def __init__(self, path, device):
        self.device = device
        self.model = FraudMLP()
        if os.path.exists(path):
            self.model.load_state_dict(torch.load(path, map_location=device))
        self.model.to(device).eval()
        self.lock = threading.Lock()

    @torch.inference_mode()
    def score(self, rows: List[Transaction]) -> List[float]:
        x = torch.tensor([[getattr(r, f) for f in FEATURES] for r in rows],
                         dtype=torch.float32, device=self.device)
        with self.lock:
            probs = torch.sigmoid(self.model(x))
        return probs.cpu().tolist()


predictor = None


@asynccontextmanager
async def lifespan(app):
    global predictor
    predictor = Predictor(CKPT, DEVICE)
    yield


app = FastAPI(title="fraud-scoring", lifespan=lifespan)


@app.get("/healthz")
def healthz():
    return {"device": str(DEVICE), "loaded": predictor is not None}


@app.post("/score")
def score(batch: ScoreBatch):
    probs = predictor.score(batch.transactions)
    return {"scores": probs, "flagged": [i for i, p in enumerate(probs) if p >= batch.threshold]}


if __name__ == "__main__":
    import uvicorn

    uvicorn.run(app, host="127.0.0.1", port=8080)
