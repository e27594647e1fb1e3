"""FastAPI app: POST /rank with a user context and candidate items,
returns the candidates sorted by predicted click probability."""
import os
from typing import List

import pandas as pd
import torch
from fastapi import FastAPI
from pydantic import BaseModel

from .features import FeatureSpec, NUMERIC
from .model import RankingModel


class Candidate(BaseModel):
    item_id: str
    item_category: str
    item_price: float


class RankRequest(BaseModel):
    user_segment: str
    platform: str
    user_tenure_days: int
    hour: int
    candidates: List[Candidate]
    top_k: int = 10


class Ranker:
    def __init__(self, path: str, device: torch.device):
        ckpt = torch.load(path, map_location=device)
        self.spec = FeatureSpec(**ckpt["spec"])
        self.device = device
        self.model = RankingModel(self.spec.cardinalities, len(NUMERIC), self.spec.mean, self.spec.std)
        self.model.load_state_dict(ckpt["state_dict"])
        self.model.to(device).eval()

    @torch.inference_mode()
    def rank(self, req: RankRequest):
        ctx = req.model_dump(exclude={"candidates", "top_k"})
        df = pd.DataFrame([{**ctx, **c.model_dump()} for c in req.candidates])
        cats, nums = self.spec.encode(df)
        probs = torch.sigmoid(self.model(cats.to(self.device), nums.to(self.device)))
        top = probs.topk(min(req.top_k, len(df)))
        idx = top.indices.cpu().tolist()
        return [{"item_id": df["item_id"].iloc[i], "score": round(s, 4)}
                for i, s in zip(idx, top.values.cpu().tolist())]

    @torch.inference_mode()
    def similar_items(self, item_id: str, k: int = 5):
        codes = torch.arange(1, len(self.spec.vocab["item_id"]) + 1)          # CPU index into the table
        vecs = torch.nn.functional.normalize(self.model.item_vectors(codes), dim=-1)
        query = vecs[self.spec.vocab["item_id"][item_id] - 1]
        sims = vecs @ query
        best = sims.topk(k + 1).indices.cpu()[1:]
        inv = {v: k_ for k_, v in self.spec.vocab["item_id"].items()}
        return [inv[int(c)] for c in codes[best]]


def create_app(model_path: str, device=None) -> FastAPI:
    device = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
    app = FastAPI(title="ranker")
    ranker = Ranker(model_path, device)

    @app.post("/rank")
    def rank(req: RankRequest):
        return {"items": ranker.rank(req)}

    @app.get("/similar/{item_id}")
    def similar(item_id: str, k: int = 5):
        return {"items": ranker.similar_items(item_id, k)}

    @app.get("/healthz")
    def healthz():
        return {"device": str(device)}

    return app


app = None
if os.environ.get("RANKER_PATH"):
    app = create_app(os.environ["RANKER_PATH"])
