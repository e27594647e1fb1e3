"""Churn model training and report; batches are unpacked by data.unpack.

Thread: https://github.com/bigscience-workshop/lm-evaluation-harness/pull/76
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from data import Churn, unpack
from metrics import summarize


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Linear(14, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = DataLoader(Churn(), batch_size=25, shuffle=True)
    for batch in loader:
        x, y = unpack(batch, device)
        loss = nn.functional.binary_cross_entropy_with_logits(model(x).squeeze(1), y)  # expect: DEV004
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        scores = torch.sigmoid(model(torch.randn(100, 14, device=device))).squeeze(1)
    print(summarize(scores))


if __name__ == "__main__":
    main()
