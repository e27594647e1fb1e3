"""Choose a GPU by index when there is one; otherwise fall back to the CPU."""
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--gpu", type=int, default=0)
parser.add_argument("--steps", type=int, default=3)
args = parser.parse_args()

if torch.cuda.is_available() and args.gpu < torch.cuda.device_count():
    device = torch.device(f"cuda:{args.gpu}")
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
print("device:", device)

model = nn.GRU(4, 8, batch_first=True).to(device)
head = nn.Linear(8, 1).to(device)
params = list(model.parameters()) + list(head.parameters())
optimizer = torch.optim.Adam(params, lr=1e-2)

for step in range(args.steps):
    seq = torch.randn(6, 10, 4, device=device)
    target = seq.sum(dim=(1, 2)).unsqueeze(1)
    out, h = model(seq)
    loss = nn.functional.mse_loss(head(h[-1]), target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.3f}")
