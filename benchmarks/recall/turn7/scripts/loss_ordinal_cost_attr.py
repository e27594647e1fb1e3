"""Ordinal regression for star ratings: a cost-sensitive loss module keeps a cost matrix (the
distance between grades) and is moved to the device with the model."""
import torch
import torch.nn as nn


class OrdinalCostLoss(nn.Module):
    def __init__(self, n_grades):
        super().__init__()
        g = torch.arange(n_grades, dtype=torch.float32)
        self.cost = (g[:, None] - g[None, :]).abs()  # expect: DEV010

    def forward(self, logits, target):
        probs = logits.softmax(-1)
        return (probs * self.cost[target]).sum(-1).mean()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 5)).to(device)
    criterion = OrdinalCostLoss(5).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x = torch.randn(256, 12)
    y = (x[:, :3].sum(1) + 2).round().clamp(0, 4).long()
    for epoch in range(3):
        for i in range(0, 256, 32):
            xb, yb = x[i:i + 32].to(device), y[i:i + 32].to(device)
            loss = criterion(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
