"""Face-embedding style training with softmax + a running-centre loss; the centres live in a
buffer of the loss module and are updated with an exponential moving average."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class RunningCenterLoss(nn.Module):
    def __init__(self, n_classes, dim, momentum=0.9):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("centers", torch.zeros(n_classes, dim))

    def forward(self, feats, labels):
        with torch.no_grad():
            for c in labels.unique():
                sel = feats[labels == c].mean(0)
                self.centers[c] = self.momentum * self.centers[c] + (1 - self.momentum) * sel
        return ((feats - self.centers[labels]) ** 2).sum(1).mean()


class Embedder(nn.Module):
    def __init__(self, dim=16, n_classes=5):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, dim))
        self.cls = nn.Linear(dim, n_classes)

    def forward(self, x):
        f = self.body(x)
        return f, self.cls(f)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    y = torch.randint(0, 5, (1000,))
    x = torch.randn(1000, 20) + F.one_hot(y, 20).float() * 3
    loader = DataLoader(TensorDataset(x, y), batch_size=100, shuffle=True)
    model = Embedder().to(device)
    center_loss = RunningCenterLoss(5, 16)  # expect: DEV012
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(3):
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            feats, logits = model(xb)
            loss = F.cross_entropy(logits, yb) + 0.01 * center_loss(feats, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
