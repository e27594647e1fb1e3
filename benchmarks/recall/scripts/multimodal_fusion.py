"""Late-fusion model: a CNN over product images plus an MLP over tabular attributes."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class ProductDataset(Dataset):
    def __init__(self, n=24):
        self.images = torch.rand(n, 3, 16, 16)
        self.tabular = torch.randn(n, 7)
        self.price = torch.rand(n) * 100

    def __len__(self):
        return len(self.price)

    def __getitem__(self, i):
        return self.images[i], self.tabular[i], self.price[i]


class FusionNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.cnn = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.mlp = nn.Sequential(nn.Linear(7, 16), nn.ReLU())
        self.head = nn.Sequential(nn.Linear(8 + 16, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, image, tabular):
        return self.head(torch.cat([self.cnn(image), self.mlp(tabular)], dim=1)).squeeze(1)


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = FusionNet().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = DataLoader(ProductDataset(), batch_size=8, shuffle=True)

for epoch in range(2):
    total = 0.0
    for image, tabular, price in loader:
        image, price = image.to(device), price.to(device)
        pred = model(image, tabular)  # expect: DEV002
        loss = nn.functional.l1_loss(pred, price)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    print(f"epoch {epoch} MAE {total / len(loader):.3f}")
