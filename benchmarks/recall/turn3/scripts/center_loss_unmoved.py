"""Face-embedding training with softmax + center loss; the center loss owns learnable centers."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class CenterLoss(nn.Module):
    """Wen et al. 2016: pulls each embedding towards a learnable center of its class."""

    def __init__(self, num_classes, feat_dim):
        super().__init__()
        self.centers = nn.Parameter(torch.randn(num_classes, feat_dim))

    def forward(self, feats, labels):
        return ((feats - self.centers[labels]) ** 2).sum(1).mean() / 2


class EmbeddingNet(nn.Module):
    def __init__(self, feat_dim=2, n_classes=10):
        super().__init__()
        self.trunk = nn.Sequential(nn.Conv2d(1, 32, 5), nn.PReLU(), nn.MaxPool2d(2), nn.Conv2d(32, 64, 5), nn.PReLU(),
                                   nn.MaxPool2d(2), nn.Flatten(), nn.Linear(64 * 4 * 4, feat_dim))
        self.classifier = nn.Linear(feat_dim, n_classes)

    def forward(self, x):
        f = self.trunk(x)
        return f, self.classifier(f)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = EmbeddingNet().to(device)
    center_loss = CenterLoss(num_classes=10, feat_dim=2)  # expect: DEV012
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    opt_center = torch.optim.SGD(center_loss.parameters(), lr=0.5)
    loader = DataLoader(TensorDataset(torch.randn(256, 1, 28, 28), torch.randint(0, 10, (256,))), batch_size=64)
    for epoch in range(2):
        for images, labels in loader:
            images, labels = images.to(device), labels.to(device)
            feats, logits = model(images)
            loss = F.cross_entropy(logits, labels) + 0.01 * center_loss(feats, labels)
            opt.zero_grad()
            opt_center.zero_grad()
            loss.backward()
            opt.step()
            opt_center.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
