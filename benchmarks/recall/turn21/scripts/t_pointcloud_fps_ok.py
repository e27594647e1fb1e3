"""Point-cloud classifier: random subsample, farthest point sampling, kNN grouping and a
voxel-occupancy branch. Index tensors made on the CPU index device clouds (legal)."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

VOXELS = 8


def farthest_point_sample(xyz, npoint):
    B, N, _ = xyz.shape
    centroids = torch.zeros(B, npoint, dtype=torch.long, device=xyz.device)
    distance = torch.full((B, N), 1e10, device=xyz.device)
    farthest = torch.randint(0, N, (B,), device=xyz.device)
    batch_indices = torch.arange(B, device=xyz.device)
    for i in range(npoint):
        centroids[:, i] = farthest
        centroid = xyz[batch_indices, farthest].unsqueeze(1)
        dist = ((xyz - centroid) ** 2).sum(-1)
        distance = torch.minimum(distance, dist)
        farthest = distance.argmax(-1)
    return centroids


def knn_group(xyz, centers, k):
    d = torch.cdist(centers, xyz)
    idx = d.topk(k, largest=False).indices
    return torch.gather(xyz.unsqueeze(1).expand(-1, centers.shape[1], -1, -1), 2,
                        idx.unsqueeze(-1).expand(-1, -1, -1, 3)) - centers.unsqueeze(2)


def occupancy(xyz, voxels=VOXELS):
    B = xyz.shape[0]
    lo, hi = xyz.amin(1, keepdim=True), xyz.amax(1, keepdim=True)
    cell = ((xyz - lo) / (hi - lo + 1e-6) * voxels).long().clamp(max=voxels - 1)
    grid = torch.zeros(B, voxels, voxels, voxels, device=xyz.device)
    b = torch.arange(B, device=xyz.device).unsqueeze(1).expand(-1, xyz.shape[1])
    grid[b, cell[..., 0], cell[..., 1], cell[..., 2]] = 1.0
    return grid.unsqueeze(1)


class PointNetLite(nn.Module):
    def __init__(self, npoint=32, k=8, n_classes=5):
        super().__init__()
        self.npoint, self.k = npoint, k
        self.local = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 64))
        self.vox = nn.Sequential(nn.Conv3d(1, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool3d(1), nn.Flatten())
        self.head = nn.Linear(64 + 8, n_classes)

    def forward(self, xyz):
        centers = torch.gather(xyz, 1, farthest_point_sample(xyz, self.npoint).unsqueeze(-1).expand(-1, -1, 3))
        local = self.local(knn_group(xyz, centers, self.k)).max(2)[0].max(1)[0]
        return self.head(torch.cat([local, self.vox(occupancy(xyz))], 1))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    rng = np.random.default_rng(0)
    clouds = torch.from_numpy(rng.normal(size=(16, 256, 3))).to(device).float()
    labels = torch.from_numpy(rng.integers(0, 5, size=16)).to(device)
    model = PointNetLite().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(3):
        keep = torch.randperm(clouds.shape[1])[:128]  # CPU index into a device tensor
        loss = F.cross_entropy(model(clouds[:, keep]), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, round(loss.item(), 4))


if __name__ == "__main__":
    main()
