"""Siamese network on image pairs with the classic margin-based contrastive loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class PairDataset(Dataset):
    def __init__(self, n=24):
        self.a = torch.rand(n, 1, 16, 16)
        self.b = torch.rand(n, 1, 16, 16)
        self.same = torch.randint(0, 2, (n,)).float()

    def __len__(self):
        return len(self.same)

    def __getitem__(self, i):
        return self.a[i], self.b[i], self.same[i]


class SiameseNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.cnn = nn.Sequential(nn.Conv2d(1, 8, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(8, 16, 3), nn.ReLU(),
                                 nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 8))

    def forward_once(self, x):
        return self.fc(self.cnn(x))


def contrastive_loss(out1, out2, label, margin=2.0):
    dist = F.pairwise_distance(out1, out2)
    return torch.mean(label * dist.pow(2) + (1 - label) * torch.clamp(margin - dist, min=0.0).pow(2))


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
net = SiameseNetwork().to(device)
optimizer = torch.optim.Adam(net.parameters(), lr=5e-4)
loader = DataLoader(PairDataset(), batch_size=8, shuffle=True)

for epoch in range(2):
    for i, (img0, img1, label) in enumerate(loader):
        img0 = img0.to(device)
        optimizer.zero_grad()
        output1 = net.forward_once(img0)
        output2 = net.forward_once(img1)  # expect: DEV002
        loss = contrastive_loss(output1, output2, label)  # expect: DEV004
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} contrastive loss {loss.item():.4f}")
