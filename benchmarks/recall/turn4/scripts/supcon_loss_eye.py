"""Supervised contrastive loss as an nn.Module, used on a small embedding network."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SupConLoss(nn.Module):
    def __init__(self, temperature=0.1):
        super().__init__()
        self.temperature = temperature

    def forward(self, features, labels):
        features = F.normalize(features, dim=-1)
        n = features.size(0)
        sim = features @ features.T / self.temperature
        same = labels.unsqueeze(0).eq(labels.unsqueeze(1)).float()
        not_self = 1.0 - torch.eye(n)  # expect: DEV006
        pos = same * not_self
        log_prob = sim - torch.logsumexp(sim.masked_fill(not_self == 0, float("-inf")), dim=1, keepdim=True)
        return -((pos * log_prob).sum(1) / pos.sum(1).clamp(min=1)).mean()


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 16)).to(device)
    criterion = SupConLoss()
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for _ in range(5):
        x = torch.randn(32, 20).to(device)
        y = torch.randint(0, 4, (32,)).to(device)
        loss = criterion(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
