"""SimCLR pre-training on random 32x32 crops, NT-Xent loss written out by hand."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class TwoViews(Dataset):
    def __init__(self, n=64, size=32):
        self.images = torch.rand(n, 3, size + 8, size + 8)
        self.size = size

    def _augment(self, img):
        i, j = torch.randint(0, 9, (2,)).tolist()
        crop = img[:, i:i + self.size, j:j + self.size]
        if torch.rand(1).item() < 0.5:
            crop = crop.flip(-1)
        return (crop * (0.8 + 0.4 * torch.rand(3, 1, 1))).clamp(0, 1)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        img = self.images[idx]
        return self._augment(img), self._augment(img)


class Encoder(nn.Module):
    def __init__(self, feat_dim=128, proj_dim=64):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.Conv2d(32, 64, 3, stride=2, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, feat_dim))
        self.projector = nn.Sequential(nn.Linear(feat_dim, feat_dim), nn.ReLU(), nn.Linear(feat_dim, proj_dim))

    def forward(self, x):
        return self.projector(self.backbone(x))


class NTXentLoss(nn.Module):
    def __init__(self, batch_size, temperature=0.5):
        super().__init__()
        self.batch_size = batch_size
        self.temperature = temperature
        self.mask = self._negatives_mask(batch_size)

    @staticmethod
    def _negatives_mask(b):
        mask = torch.ones(2 * b, 2 * b, dtype=torch.bool)
        mask.fill_diagonal_(False)
        for i in range(b):
            mask[i, b + i] = False
            mask[b + i, i] = False
        return mask

    def forward(self, z_i, z_j):
        b = z_i.size(0)
        z = F.normalize(torch.cat([z_i, z_j], dim=0), dim=1)
        sim = z @ z.T / self.temperature
        positives = torch.cat([torch.diag(sim, b), torch.diag(sim, -b)]).view(2 * b, 1)
        negatives = sim[self.mask].view(2 * b, -1)
        logits = torch.cat([positives, negatives], dim=1)
        labels = torch.zeros(2 * b, dtype=torch.long)  # expect: DEV006
        return F.cross_entropy(logits, labels)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--temperature", type=float, default=0.5)
    args = parser.parse_args()

    device = "cuda" if torch.cuda.is_available() else "cpu"
    loader = DataLoader(TwoViews(), batch_size=args.batch_size, shuffle=True, drop_last=True)
    model = Encoder().to(device)
    criterion = NTXentLoss(args.batch_size, args.temperature)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)

    for epoch in range(args.epochs):
        for x_i, x_j in loader:
            x_i = x_i.to(device, non_blocking=True)
            x_j = x_j.to(device, non_blocking=True)
            loss = criterion(model(x_i), model(x_j))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: nt-xent {loss.item():.4f}")


if __name__ == "__main__":
    main()
