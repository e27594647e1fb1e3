"""Image classification with an exponential moving average of the weights for evaluation."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class SmallConvNet(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
                                      nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(64, n_classes)

    def forward(self, x):
        return self.fc(self.features(x))


@torch.no_grad()
def ema_update(ema, model, decay=0.999):
    for e, p in zip(ema.parameters(), model.parameters()):
        e.mul_(decay).add_(p.detach(), alpha=1 - decay)
    for e, b in zip(ema.buffers(), model.buffers()):
        e.copy_(b)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = SmallConvNet()
    ema_model = copy.deepcopy(model)  # expect: DEV016
    ema_model.requires_grad_(False)
    model = model.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    loader = DataLoader(TensorDataset(torch.randn(512, 3, 32, 32), torch.randint(0, 10, (512,))), batch_size=64, shuffle=True)
    for epoch in range(3):
        model.train()
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema_update(ema_model, model)
        ema_model.eval()
        with torch.no_grad():
            xb, yb = next(iter(loader))
            acc = (ema_model(xb.to(device)).argmax(-1) == yb.to(device)).float().mean()
        print(epoch, loss.item(), acc.item())


if __name__ == "__main__":
    main()
