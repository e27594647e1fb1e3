"""Written on a two-GPU box: the second GPU behind an availability check (DEV018). On a machine
with one GPU, "invalid device ordinal"."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = torch.device("cuda:1" if torch.cuda.is_available() else "cpu")
model = nn.Linear(8, 2).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    x = torch.randn(8, 8).to(device)
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
