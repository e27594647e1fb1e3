"""Residual MLP whose blocks live in nn.ModuleList / nn.ModuleDict, so .to() and parameters() see them."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class ResidualBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        return x + torch.relu(self.fc(self.norm(x)))


class ResMLP(nn.Module):
    def __init__(self, d_in=10, dim=32, depth=3, tasks=("price", "volume")):
        super().__init__()
        self.stem = nn.Linear(d_in, dim)
        self.blocks = nn.ModuleList([ResidualBlock(dim) for _ in range(depth)])
        self.heads = nn.ModuleDict({t: nn.Linear(dim, 1) for t in tasks})
        extra = []
        for _ in range(2):
            extra.append(nn.Linear(dim, dim))
            extra.append(nn.GELU())
        self.extra = nn.Sequential(*extra)

    def forward(self, x):
        h = self.stem(x)
        for block in self.blocks:
            h = block(h)
        h = self.extra(h)
        return {name: head(h).squeeze(-1) for name, head in self.heads.items()}


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = ResMLP().to(device)
X = torch.randn(40, 10)
Y = torch.stack([X.sum(1), X[:, 0] * 2], dim=1)
loader = DataLoader(TensorDataset(X, Y), batch_size=8, shuffle=True)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(2):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        out = model(x)
        loss = nn.functional.mse_loss(out["price"], y[:, 0]) + nn.functional.mse_loss(out["volume"], y[:, 1])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
