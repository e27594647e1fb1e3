"""Written on a GPU box: `.cuda()` everywhere. Fails on the CPU-only run, as it would on a
laptop."""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 2).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    x = torch.randn(8, 4).cuda()
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
