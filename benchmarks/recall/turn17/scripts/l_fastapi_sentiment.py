"""Sentiment scoring service.

    MODEL_PATH=sentiment_bow.pt uvicorn l_fastapi_sentiment:app --port 8000

POST /predict {"text": "..."} -> {"label": "...", "scores": {...}}
"""
import os
import re
import zlib
from contextlib import asynccontextmanager
from typing import Dict, List

import torch
import torch.nn as nn
from fastapi import FastAPI, HTTPException
from pydantic import BaseModel

MODEL_PATH = os.environ.get("MODEL_PATH", "sentiment_bow.pt")
N_BUCKETS = 2 ** 14
LABELS = ["negative", "neutral", "positive"]
TOKEN_RE = re.compile(r"[a-z0-9']+")


def hash_tokens(text: str) -> List[int]:
    toks = TOKEN_RE.findall(text.lower())
    grams = toks + [a + "_" + b for a, b in zip(toks, toks[1:])]
    return [zlib.crc32(g.encode()) % N_BUCKETS for g in grams] or [0]


class BowClassifier(nn.Module):
    def __init__(self, n_buckets=N_BUCKETS, dim=64, n_labels=len(LABELS)):
        super().__init__()
        self.bag = nn.EmbeddingBag(n_buckets, dim, mode="mean")
        self.out = nn.Sequential(nn.ReLU(), nn.Linear(dim, n_labels))

    def forward(self, ids, offsets):
        return self.out(self.bag(ids, offsets))


class PredictRequest(BaseModel):
    text: str


class PredictResponse(BaseModel):
    label: str
    scores: Dict[str, float]


STATE = {}


@asynccontextmanager
async def lifespan(app: FastAPI):
    model = BowClassifier()
    if os.path.exists(MODEL_PATH):
        model.load_state_dict(torch.load(MODEL_PATH, map_location="cpu"))
    else:
        print(f"warning: {MODEL_PATH} not found, serving an untrained model")
    model.eval()
    model.to("cuda")  # expect: DEV001
    STATE["model"] = model
    yield
    STATE.clear()


app = FastAPI(title="sentiment", lifespan=lifespan)


@app.get("/health")
def health():
    return {"ok": "model" in STATE}


@app.post("/predict", response_model=PredictResponse)
def predict(req: PredictRequest):
    if not req.text.strip():
        raise HTTPException(status_code=422, detail="empty text")
    model = STATE["model"]
    device = next(model.parameters()).device
    ids = torch.tensor(hash_tokens(req.text), dtype=torch.long, device=device)
    offsets = torch.zeros(1, dtype=torch.long, device=device)
    with torch.inference_mode():
        probs = torch.softmax(model(ids, offsets), dim=-1)[0]
    scores = probs.numpy()  # expect: DEV011
    best = int(scores.argmax())
    return PredictResponse(label=LABELS[best], scores={l: float(s) for l, s in zip(LABELS, scores)})


if __name__ == "__main__":
    import uvicorn

    uvicorn.run(app, host="127.0.0.1", port=int(os.environ.get("PORT", "8000")))
