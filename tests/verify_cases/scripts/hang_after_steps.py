"""Three good steps, then a hang (a stuck data source): the timeout must keep the three steps
and show where it hung."""
import time

import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 1).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def next_batch(step):
    if step == 3:
        time.sleep(3600)  # the data server stopped answering
    return torch.randn(8, 4, device=device), torch.randn(8, 1, device=device)


for step in range(100):
    x, y = next_batch(step)
    loss = nn.functional.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
