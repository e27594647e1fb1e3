"""Long-tailed classification with logit adjustment: the loss module holds the log class
priors computed from label counts and is moved with the model's device."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class LogitAdjustedLoss(nn.Module):
    def __init__(self, class_counts, tau=1.0):
        super().__init__()
        priors = np.asarray(class_counts, dtype=np.float32) / np.sum(class_counts)
        self.log_prior = tau * torch.from_numpy(np.log(priors))  # expect: DEV010

    def forward(self, logits, target):
        return F.cross_entropy(logits + self.log_prior, target)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    counts = [500, 120, 40, 10]
    y = torch.cat([torch.full((c,), k) for k, c in enumerate(counts)])
    x = torch.randn(len(y), 6) + y[:, None].float()
    loader = DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True)
    model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 4)).to(device)
    criterion = LogitAdjustedLoss(counts).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(3):
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = criterion(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
