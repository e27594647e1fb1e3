"""nn.DataParallel regression: inputs stay on the host (DataParallel scatters them), targets follow the output."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(12, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.head = nn.Linear(64, 1)

    def forward(self, x):
        return self.head(self.body(x)).squeeze(-1)


device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
model = Regressor()
model = nn.DataParallel(model)
model.to(device)

X = torch.randn(64, 12)
y = X[:, :3].sum(1) + 0.1 * torch.randn(64)
loader = DataLoader(TensorDataset(X, y), batch_size=16, shuffle=True)
loss_fn = nn.SmoothL1Loss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(2):
    total = 0.0
    for features, target in loader:
        pred = model(features)
        loss = loss_fn(pred, target.to(pred.device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * features.size(0)
    print(f"epoch {epoch} mse {total / len(loader.dataset):.4f}")

torch.save(model.module.state_dict(), "/tmp/regressor_dp.pt")
