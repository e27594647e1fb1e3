"""Batch scoring script: predictions for a CSV written back with pandas."""
import argparse

import pandas as pd
import torch
import torch.nn as nn


class ChurnModel(nn.Module):
    def __init__(self, n_features):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_features, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("csv")
    p.add_argument("--weights", default="churn.pt")
    p.add_argument("--out", default="scored.csv")
    args = p.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    df = pd.read_csv(args.csv)
    features = df.drop(columns=["customer_id"]).astype("float32")
    model = ChurnModel(features.shape[1])
    model.load_state_dict(torch.load(args.weights, map_location="cpu"))
    model.to(device).eval()
    scores = []
    with torch.no_grad():
        for start in range(0, len(features), 4096):
            chunk = torch.tensor(features.values[start:start + 4096]).to(device)
            scores.append(torch.sigmoid(model(chunk)))
    df["churn_prob"] = torch.cat(scores).numpy()  # expect: DEV011
    df[["customer_id", "churn_prob"]].to_csv(args.out, index=False)


if __name__ == "__main__":
    main()
