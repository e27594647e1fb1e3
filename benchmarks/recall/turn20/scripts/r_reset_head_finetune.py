"""Class-incremental fine-tuning: pretrain on 5 classes, then grow the head to 8."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Backbone(nn.Module):
    def __init__(self, num_classes=5, feat_dim=64):
        super().__init__()
        self.feat_dim = feat_dim
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4),
            nn.Flatten(), nn.Linear(16 * 16, feat_dim), nn.ReLU(),
        )
        self.fc = nn.Linear(feat_dim, num_classes)
        self.reset_parameters()

    def reset_parameters(self):
        for m in self.modules():
            if isinstance(m, (nn.Conv2d, nn.Linear)):
                nn.init.kaiming_normal_(m.weight, nonlinearity="relu")
                nn.init.zeros_(m.bias)

    def reset_classifier(self, num_classes):
        old = self.fc
        self.fc = nn.Linear(self.feat_dim, num_classes)  # expect: DEV015
        with torch.no_grad():
            self.fc.weight[: old.out_features].copy_(old.weight)
            self.fc.bias[: old.out_features].copy_(old.bias)

    def forward(self, x):
        return self.fc(self.features(x))


def make_loader(n_classes, n=128):
    x = torch.randn(n, 1, 12, 12)
    y = torch.randint(0, n_classes, (n,))
    return DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)


def run(model, loader, device, epochs=2):
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for _ in range(epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return loss.item()


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Backbone(num_classes=5).to(device)
    print("task 1", run(model, make_loader(5), device))
    model.reset_classifier(8)
    print("task 2", run(model, make_loader(8), device))
