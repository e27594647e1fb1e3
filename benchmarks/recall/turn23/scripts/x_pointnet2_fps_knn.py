"""PointNet++-style set abstraction with farthest point sampling and a kNN
edge feature (DGCNN style) for shape classification on random clouds."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def farthest_point_sample(xyz, npoint):
    """xyz: (B, N, 3) -> indices (B, npoint)"""
    B, N, _ = xyz.shape
    centroids = torch.zeros(B, npoint, dtype=torch.long, device=xyz.device)
    distance = torch.ones(B, N) * 1e10  # expect: DEV006
    farthest = torch.randint(0, N, (B,), dtype=torch.long, device=xyz.device)
    batch_indices = torch.arange(B)  # CPU index into a device tensor: legal
    for i in range(npoint):
        centroids[:, i] = farthest
        centroid = xyz[batch_indices, farthest, :].view(B, 1, 3)
        dist = torch.sum((xyz - centroid) ** 2, -1)
        mask = dist < distance
        distance[mask] = dist[mask]
        farthest = torch.max(distance, -1)[1]
    return centroids


def index_points(points, idx):
    B = points.shape[0]
    view_shape = [B] + [1] * (idx.dim() - 1)
    batch = torch.arange(B, device=points.device).view(view_shape).expand_as(idx)
    return points[batch, idx]


def knn(x, k):
    """x: (B, C, N) -> (B, N, k) neighbour indices"""
    inner = -2 * torch.matmul(x.transpose(2, 1), x)
    xx = torch.sum(x ** 2, dim=1, keepdim=True)
    pairwise = -xx - inner - xx.transpose(2, 1)
    return pairwise.topk(k=k, dim=-1)[1]


def edge_features(x, k=8):
    B, C, N = x.shape
    idx = knn(x, k)
    idx_base = torch.arange(0, B).view(-1, 1, 1) * N  # expect: DEV006
    idx = (idx + idx_base).view(-1)
    feats = x.transpose(2, 1).contiguous().view(B * N, C)[idx].view(B, N, k, C)
    centre = x.transpose(2, 1).unsqueeze(2).expand(-1, -1, k, -1)
    return torch.cat([feats - centre, centre], dim=3).permute(0, 3, 1, 2)


class PointClassifier(nn.Module):
    def __init__(self, n_classes=5, npoint=32, k=8):
        super().__init__()
        self.npoint, self.k = npoint, k
        self.edge_conv = nn.Sequential(nn.Conv2d(6, 32, 1), nn.BatchNorm2d(32), nn.LeakyReLU(0.2))
        self.head = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, n_classes))

    def forward(self, xyz):
        idx = farthest_point_sample(xyz, self.npoint)
        sampled = index_points(xyz, idx)  # (B, npoint, 3)
        e = self.edge_conv(edge_features(sampled.transpose(1, 2), self.k))
        e = e.max(dim=-1)[0].max(dim=-1)[0]
        return self.head(e)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    clouds = torch.randn(40, 128, 3)
    labels = torch.randint(0, 5, (40,))
    model = PointClassifier().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(4):
        sel = torch.randperm(40)[:8]
        xyz, y = clouds[sel].to(device), labels[sel].to(device)
        loss = F.cross_entropy(model(xyz), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
