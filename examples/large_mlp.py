"""A large MLP (4 x 4096 hidden, batch 512): enough compute per step for a GPU to pay off,
the other end of the seed's crossover. `--hidden` and `--batch-size` shrink it."""
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--hidden", type=int, default=4096)
parser.add_argument("--batch-size", type=int, default=512)
parser.add_argument("--steps", type=int, default=30)
args = parser.parse_args()

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
width = args.hidden
model = nn.Sequential(
    nn.Linear(256, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU(),
    nn.Linear(width, width), nn.ReLU(), nn.Linear(width, 10),
).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
inputs = torch.randn(args.steps, args.batch_size, 256)
targets = torch.randint(0, 10, (args.steps, args.batch_size))

for step in range(args.steps):
    x, y = inputs[step].to(device), targets[step].to(device)
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.6f}")
