"""PointNet++-style classifier on synthetic LiDAR object crops: farthest point sampling,
ball grouping by k-nearest neighbours, shared MLPs per set-abstraction level."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def farthest_point_sample(xyz, npoint):
    B, N, _ = xyz.shape
    centroids = torch.zeros(B, npoint, dtype=torch.long, device=xyz.device)
    distance = torch.full((B, N), 1e10, device=xyz.device)
    farthest = torch.randint(0, N, (B,), device=xyz.device)
    batch_idx = torch.arange(B, device=xyz.device)
    for i in range(npoint):
        centroids[:, i] = farthest
        centroid = xyz[batch_idx, farthest].unsqueeze(1)
        dist = ((xyz - centroid) ** 2).sum(-1)
        closer = dist < distance
        distance[closer] = dist[closer]
        farthest = distance.argmax(-1)
    return centroids


def index_points(points, idx):
    B = points.shape[0]
    batch = torch.arange(B, device=points.device).view(B, *([1] * (idx.dim() - 1)))
    return points[batch, idx]


class SetAbstraction(nn.Module):
    def __init__(self, npoint, k, in_ch, out_ch):
        super().__init__()
        self.npoint, self.k = npoint, k
        self.mlp = nn.Sequential(nn.Linear(in_ch + 3, out_ch), nn.ReLU(), nn.Linear(out_ch, out_ch))

    def forward(self, xyz, feats):
        idx = farthest_point_sample(xyz, self.npoint)
        new_xyz = index_points(xyz, idx)
        d = torch.cdist(new_xyz, xyz)
        knn = d.topk(self.k, largest=False).indices
        grouped_xyz = index_points(xyz, knn) - new_xyz.unsqueeze(2)
        grouped = grouped_xyz if feats is None else torch.cat([grouped_xyz, index_points(feats, knn)], dim=-1)
        return new_xyz, self.mlp(grouped).max(dim=2).values


class PointNet2Cls(nn.Module):
    def __init__(self, num_classes=4):
        super().__init__()
        self.sa_layers = nn.ModuleList([SetAbstraction(64, 8, 0, 32), SetAbstraction(16, 8, 32, 64)])
        self.head = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, num_classes))

    def forward(self, xyz):
        feats = None
        for sa in self.sa_layers:
            xyz, feats = sa(xyz, feats)
        return self.head(feats.max(dim=1).values)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = PointNet2Cls().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    clouds = torch.randn(16, 256, 3)
    labels = torch.randint(0, 4, (16,))
    # perm is a CPU index into CPU tensors; the slices are moved below
    for epoch in range(3):
        perm = torch.randperm(16)
        for i in range(0, 16, 8):
            b = perm[i:i + 8]
            xyz, y = clouds[b].to(device), labels[b].to(device)
            loss = F.cross_entropy(model(xyz), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
