"""torch.compile with a placement bug inside forward: a positional table made on the CPU."""
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)

    def forward(self, x):
        position = torch.arange(x.shape[1]).float()  # on the CPU, whatever x is on
        return self.proj(x + position)


torch.manual_seed(0)
model = Net().to(device)
compiled = torch.compile(model)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(10):
    x = torch.randn(16, 8, device=device)
    loss = compiled(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
