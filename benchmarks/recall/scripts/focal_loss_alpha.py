"""Focal loss with per-class alpha for a heavily imbalanced 3-class problem."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class FocalLoss(nn.Module):
    def __init__(self, alpha, gamma=2.0, reduction="mean"):
        super().__init__()
        self.alpha = torch.tensor(alpha, dtype=torch.float32)  # expect: DEV010
        self.gamma = gamma
        self.reduction = reduction

    def forward(self, logits, targets):
        ce = F.cross_entropy(logits, targets, reduction="none")
        pt = torch.exp(-ce)
        alpha_t = self.alpha[targets]
        loss = alpha_t * (1 - pt) ** self.gamma * ce
        return loss.mean() if self.reduction == "mean" else loss.sum()


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3)).to(device)
criterion = FocalLoss(alpha=[0.1, 0.3, 0.6]).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
labels = torch.cat([torch.zeros(40), torch.ones(6), torch.full((2,), 2.0)]).long()
loader = DataLoader(TensorDataset(torch.randn(48, 10), labels), batch_size=16, shuffle=True)

for epoch in range(2):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} focal loss {loss.item():.4f}")
