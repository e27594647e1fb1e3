"""Step-based training (no epochs): pull batches with next(iter(...)) until max_steps."""
import itertools

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def infinite(loader):
    while True:
        for batch in loader:
            yield batch


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.SiLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = Scorer().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min(1.0, (s + 1) / 3))
loader = DataLoader(TensorDataset(torch.randn(20, 16), torch.rand(20)), batch_size=8, shuffle=True, drop_last=True)

max_steps, step = 4, 0
data_iter = iter(loader)
while step < max_steps:
    try:
        x, y = next(data_iter)
    except StopIteration:
        data_iter = iter(loader)
        x, y = next(data_iter)
    y = y.to(device)
    pred = model(x)  # expect: DEV002
    loss = nn.functional.binary_cross_entropy_with_logits(pred, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    scheduler.step()
    step += 1
    print(f"step {step} loss {loss.item():.4f} lr {scheduler.get_last_lr()[0]:.2e}")

eval_stream = infinite(loader)
with torch.no_grad():
    for x, y in itertools.islice(eval_stream, 2):
        print("eval loss", nn.functional.binary_cross_entropy_with_logits(model(x.to(device)), y.to(device)).item())
