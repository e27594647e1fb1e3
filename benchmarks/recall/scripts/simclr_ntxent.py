"""SimCLR-style contrastive pre-training with the NT-Xent loss on two augmented views."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def augment(x):
    noise = 0.1 * torch.randn_like(x)
    flip = torch.rand(x.size(0), 1, 1, 1, device=x.device) < 0.5
    return torch.where(flip, x.flip(-1), x) + noise


def nt_xent(z1, z2, temperature=0.5):
    batch_size = z1.size(0)
    z = F.normalize(torch.cat([z1, z2], dim=0), dim=1)
    sim = z @ z.t() / temperature
    self_mask = torch.eye(2 * batch_size, dtype=torch.bool)  # expect: DEV006
    sim = sim.masked_fill(self_mask, -9e15)
    targets = torch.arange(2 * batch_size)  # expect: DEV006
    targets = (targets + batch_size) % (2 * batch_size)
    return F.cross_entropy(sim, targets)


class Encoder(nn.Module):
    def __init__(self, proj_dim=16):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.projector = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, proj_dim))

    def forward(self, x):
        return self.projector(self.backbone(x))


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = Encoder().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
loader = DataLoader(TensorDataset(torch.rand(32, 3, 12, 12)), batch_size=8, shuffle=True, drop_last=True)

for epoch in range(2):
    for (images,) in loader:
        images = images.to(device)
        z1, z2 = model(augment(images)), model(augment(images))
        loss = nt_xent(z1, z2)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} contrastive loss {loss.item():.4f}")
