"""Look-alike of pointcloud_dgcnn_idx_base.py: farthest point sampling and neighbour grouping
build every index tensor on the points' device, and a CPU permutation that subsamples the cloud
indexes a CUDA tensor (which PyTorch allows).

Thread: https://github.com/pyg-team/pytorch_geometric/issues/407 (sample_points works only on
CPU: torch.rand(self.num, 2) should be created with device=pos.device).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def farthest_point_sample(xyz, m):
    B, N, _ = xyz.shape
    centroids = torch.zeros(B, m, dtype=torch.long, device=xyz.device)
    distance = torch.full((B, N), float("inf"), device=xyz.device)
    farthest = torch.randint(0, N, (B,), device=xyz.device)
    batch = torch.arange(B, device=xyz.device)
    for i in range(m):
        centroids[:, i] = farthest
        centre = xyz[batch, farthest].unsqueeze(1)
        distance = torch.minimum(distance, ((xyz - centre) ** 2).sum(-1))
        farthest = distance.argmax(-1)
    return centroids


def group(xyz, centres_idx, k):
    B = xyz.size(0)
    batch = torch.arange(B, device=xyz.device)[:, None]
    centres = xyz[batch, centres_idx]
    nn_idx = torch.cdist(centres, xyz).topk(k, largest=False).indices
    neigh = xyz[batch[..., None], nn_idx]
    return neigh - centres.unsqueeze(2)


class TinyPointNet2(nn.Module):
    def __init__(self, m=32, k=8, classes=5):
        super().__init__()
        self.m, self.k = m, k
        self.mlp = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 64))
        self.head = nn.Linear(64, classes)

    def forward(self, xyz):
        local = group(xyz, farthest_point_sample(xyz, self.m), self.k)
        feats = self.mlp(local).max(2).values
        return self.head(feats.max(1).values)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    labels = torch.randint(0, 5, (96,))
    clouds = torch.randn(96, 256, 3) * (1 + labels.view(-1, 1, 1) * 0.3)
    model = TinyPointNet2().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for pts, y in DataLoader(TensorDataset(clouds, labels), batch_size=16, shuffle=True):
            pts, y = pts.to(device), y.to(device)
            keep = torch.randperm(pts.size(1))[:128]
            loss = F.cross_entropy(model(pts[:, keep]), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: {loss.item():.3f}")


if __name__ == "__main__":
    main()
