"""Binary defect detector on tiny synthetic patches (code ported from an old 0.3-era script)."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

use_cuda = torch.cuda.is_available()
device = torch.device("cuda" if use_cuda else "cpu")


def synthetic_patches(n=320, size=12, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(n, 1, size, size, generator=g)
    y = torch.randint(0, 2, (n,), generator=g)
    x[y == 1, :, 4:8, 4:8] += 1.0
    return TensorDataset(x, y)


class DefectNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveMaxPool2d(1),
            nn.Flatten(), nn.Linear(16, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(1)


model = DefectNet().to(device)
criterion = nn.BCEWithLogitsLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
train_loader = DataLoader(synthetic_patches(seed=0), batch_size=32, shuffle=True)
test_loader = DataLoader(synthetic_patches(n=96, seed=1), batch_size=32)

for epoch in range(4):
    model.train()
    for images, labels in train_loader:
        images, labels = images.to(device), labels.to(device)
        logits = model(images)
        loss = criterion(logits, labels.type(torch.FloatTensor))  # expect: DEV021
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    model.eval()
    correct = 0
    with torch.no_grad():
        for images, labels in test_loader:
            images, labels = images.to(device), labels.to(device)
            pred = (model(images) > 0).long()
            correct += (pred == labels).sum().item()
    print("epoch %d  loss %.4f  test acc %.3f" % (epoch, loss.item(), correct / len(test_loader.dataset)))
