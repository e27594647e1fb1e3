import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class FocalLoss(nn.Module):
    """Multi-class focal loss with per-class alpha (Lin et al. 2017)."""

    def __init__(self, alpha=(0.25, 0.75), gamma=2.0):
        super().__init__()
        self.alpha = torch.tensor(alpha, dtype=torch.float32)  # expect: DEV010
        self.gamma = gamma

    def forward(self, logits, targets):
        logp = F.log_softmax(logits, dim=-1)
        logp_t = logp.gather(1, targets.unsqueeze(1)).squeeze(1)
        p_t = logp_t.exp()
        alpha_t = self.alpha[targets]
        return (-alpha_t * (1 - p_t) ** self.gamma * logp_t).mean()


class Classifier(nn.Module):
    def __init__(self, d_in=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 32), nn.ReLU(), nn.Linear(32, 2))

    def forward(self, x):
        return self.net(x)


device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")

x = torch.randn(300, 16)
y = (torch.rand(300) < 0.1).long()  # imbalanced
loader = DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True)

model = Classifier().to(device)
criterion = FocalLoss(alpha=(0.1, 0.9)).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)

for epoch in range(5):
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        loss = criterion(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: {loss.item():.4f}")
