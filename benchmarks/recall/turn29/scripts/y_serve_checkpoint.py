"""FastAPI service scoring loan applications with a trained MLP checkpoint.

Run with: uvicorn y_serve_checkpoint:app --port 8000
"""
import os
from typing import List

import torch
import torch.nn as nn
from fastapi import FastAPI
from pydantic import BaseModel

MODEL_PATH = os.environ.get("MODEL_PATH", "checkpoints/credit_mlp.pt")
DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class CreditMLP(nn.Module):
    def __init__(self, n_features, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU(), nn.Dropout(0.1), nn.Linear(hidden, 2))

    def forward(self, x):
        return self.net(x)


class Application(BaseModel):
    features: List[float]


class Scores(BaseModel):
    default_probability: float


def load_model(path):
    ckpt = torch.load(path)  # expect: DEV008
    model = CreditMLP(ckpt["n_features"], ckpt.get("hidden", 64))
    model.load_state_dict(ckpt["state_dict"])
    return model.to(DEVICE).eval()


app = FastAPI(title="credit-scoring")
model = load_model(MODEL_PATH)


@app.get("/health")
def health():
    return {"status": "ok", "device": str(DEVICE)}


@app.post("/score", response_model=Scores)
def score(app_in: Application):
    x = torch.tensor(app_in.features, dtype=torch.float32).unsqueeze(0)  # expect: DEV006
    with torch.inference_mode():
        probs = torch.softmax(model(x), dim=-1)
    return Scores(default_probability=float(probs[0, 1]))
