"""Churn scoring service.

    uvicorn h_fastapi_tabular_service:app --host 0.0.0.0 --port 8080

The weights come from the nightly training job (train_churn.py on the GPU box); the
checkpoint also carries the feature scaler statistics. The service itself runs on
whatever the container has: the GPU nodes at peak, CPU pods otherwise.

    curl -X POST localhost:8080/score -H 'content-type: application/json' \
         -d '{"records": [{"features": [0.1, 2.0, ...]}]}'
"""
import os
from typing import List

import torch
import torch.nn as nn
from fastapi import FastAPI, HTTPException
from pydantic import BaseModel

CKPT_PATH = os.environ.get("CHURN_CKPT", "churn_mlp.pt")
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class ChurnMLP(nn.Module):
    def __init__(self, n_features: int, hidden: int = 64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_features, hidden),
            nn.ReLU(),
            nn.Dropout(0.1),
            nn.Linear(hidden, hidden),
            nn.ReLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)


class Record(BaseModel):
    features: List[float]


class ScoreRequest(BaseModel):
    records: List[Record]


class ScoreResponse(BaseModel):
    churn_probability: List[float]


app = FastAPI(title="churn-scorer", version="1.3.0")
STATE = {}


@app.on_event("startup")
def load_model():
    ckpt = torch.load(CKPT_PATH)  # expect: DEV008
    model = ChurnMLP(ckpt["n_features"], hidden=ckpt.get("hidden", 64))
    model.load_state_dict(ckpt["model"])
    model.to(device)
    model.eval()
    STATE["model"] = model
    STATE["n_features"] = ckpt["n_features"]
    STATE["mean"] = ckpt["mean"].to(device)
    STATE["std"] = ckpt["std"].to(device).clamp_min(1e-6)


def score_rows(rows):
    x = torch.tensor(rows, dtype=torch.float32)  # expect: DEV006
    x = (x - STATE["mean"]) / STATE["std"]
    with torch.no_grad():
        logits = STATE["model"](x)
    return torch.sigmoid(logits).numpy()  # expect: DEV011


@app.get("/health")
def health():
    return {"status": "ok", "device": str(device)}


@app.post("/score", response_model=ScoreResponse)
def score(req: ScoreRequest):
    rows = [r.features for r in req.records]
    if not rows:
        return ScoreResponse(churn_probability=[])
    if any(len(r) != STATE["n_features"] for r in rows):
        raise HTTPException(status_code=422, detail=f"expected {STATE['n_features']} features per record")
    probs = score_rows(rows)
    return ScoreResponse(churn_probability=[round(float(p), 5) for p in probs])


if __name__ == "__main__":
    # local smoke test: fake checkpoint + one request through the test client
    from fastapi.testclient import TestClient

    if not os.path.exists(CKPT_PATH):
        n = 12
        torch.save(
            {"n_features": n, "hidden": 64, "model": ChurnMLP(n).state_dict(),
             "mean": torch.zeros(n), "std": torch.ones(n)},
            CKPT_PATH,
        )
    with TestClient(app) as client:
        payload = {"records": [{"features": [float(i % 5) for i in range(12)]} for _ in range(3)]}
        resp = client.post("/score", json=payload)
        print(resp.status_code, resp.json())
