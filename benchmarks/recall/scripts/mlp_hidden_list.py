"""Configurable-depth MLP for tabular regression; the depth comes from the command line."""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class DeepMLP(nn.Module):
    def __init__(self, d_in, hidden_sizes, d_out=1, dropout=0.1):
        super().__init__()
        sizes = [d_in] + list(hidden_sizes)
        self.hidden = [nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:])]  # expect: DEV009
        self.norms = nn.ModuleList(nn.LayerNorm(b) for b in sizes[1:])
        self.dropout = nn.Dropout(dropout)
        self.out = nn.Linear(sizes[-1], d_out)

    def forward(self, x):
        for layer, norm in zip(self.hidden, self.norms):
            x = self.dropout(torch.relu(norm(layer(x))))
        return self.out(x)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--hidden", type=int, nargs="+", default=[32, 32, 16])
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    X = torch.randn(64, 7)
    y = (X[:, :2].prod(dim=1, keepdim=True) + 0.05 * torch.randn(64, 1))
    loader = DataLoader(TensorDataset(X, y), batch_size=16, shuffle=True)
    model = DeepMLP(7, args.hidden).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    print(f"{sum(p.numel() for p in model.parameters())} trainable parameters")
    for epoch in range(args.epochs):
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = nn.functional.mse_loss(model(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")
