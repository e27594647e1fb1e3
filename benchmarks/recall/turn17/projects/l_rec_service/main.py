"""Train the ranker on synthetic events, then smoke-test the HTTP service.

    python main.py --epochs 3
    RANKER_PATH=artifacts/ranker.pt uvicorn rec_service.serving:app
"""
import argparse

import torch
from fastapi.testclient import TestClient

from rec_service.features import synthetic_events
from rec_service.serving import create_app
from rec_service.training import train_model


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--out", default="artifacts/ranker.pt")
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    path = train_model(synthetic_events(), device, epochs=args.epochs, out_path=args.out)

    client = TestClient(create_app(path))
    req = {
        "user_segment": "vip", "platform": "ios", "user_tenure_days": 700, "hour": 21, "top_k": 3,
        "candidates": [
            {"item_id": "5", "item_category": "games", "item_price": 9.99},
            {"item_id": "17", "item_category": "garden", "item_price": 49.0},
            {"item_id": "42", "item_category": "books", "item_price": 12.5},
            {"item_id": "999", "item_category": "music", "item_price": 3.0},
        ],
    }
    print(client.post("/rank", json=req).json())
    print(client.get("/similar/5").json())


if __name__ == "__main__":
    main()
