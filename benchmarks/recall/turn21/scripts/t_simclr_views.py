"""SimCLR pretraining on toy images: two random augmentations per image, NT-Xent loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


def augment(img, g):
    if torch.rand(1, generator=g) < 0.5:
        img = img.flip(-1)
    i, j = torch.randint(0, 5, (2,), generator=g).tolist()
    crop = img[:, i:i + 24, j:j + 24]
    crop = F.interpolate(crop.unsqueeze(0), size=28, mode="bilinear", align_corners=False).squeeze(0)
    return crop * (0.8 + 0.4 * torch.rand(1, generator=g)) + 0.05 * torch.randn(crop.shape, generator=g)


class TwoViewDataset(Dataset):
    def __init__(self, n=96, seed=0):
        self.images = torch.rand(n, 3, 28, 28, generator=torch.Generator().manual_seed(seed))
        self.g = torch.Generator().manual_seed(seed + 1)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        img = self.images[i]
        return augment(img, self.g), augment(img, self.g)


class Encoder(nn.Module):
    def __init__(self, feat=64, proj=32):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1), nn.ReLU(), nn.Conv2d(32, feat, 3, 2, 1), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.projector = nn.Sequential(nn.Linear(feat, feat), nn.ReLU(), nn.Linear(feat, proj))

    def forward(self, x):
        return self.projector(self.backbone(x))


def nt_xent(z1, z2, tau=0.2):
    n = z1.shape[0]
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = z @ z.t() / tau
    self_mask = torch.eye(2 * n, dtype=torch.bool)  # expect: DEV006
    sim = sim.masked_fill(self_mask, -9e15)
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)]).to(sim.device)
    return F.cross_entropy(sim, targets)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Encoder().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-6)
    loader = DataLoader(TwoViewDataset(), batch_size=32, shuffle=True, drop_last=True)
    for epoch in range(2):
        running = 0.0
        for view1, view2 in loader:
            view1 = view1.to(device)
            z1 = model(view1)
            z2 = model(view2)  # expect: DEV002
            loss = nt_xent(z1, z2)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
        print(f"epoch {epoch} nt-xent {running / len(loader):.4f}")


if __name__ == "__main__":
    main()
