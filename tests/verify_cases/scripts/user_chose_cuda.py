"""Correct code, verified with `-- --device cuda` on a machine without a GPU: the cpu run
fails because the user asked for cuda, and the report must say so."""
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--device", default="cuda")
args = parser.parse_args()
torch.manual_seed(0)
model = nn.Linear(4, 1).to(args.device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(20):
    x = torch.randn(16, 4, device=args.device)
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
