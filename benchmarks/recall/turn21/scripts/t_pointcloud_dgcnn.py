"""Point-cloud classifier: farthest point sampling, then an EdgeConv on the k nearest
neighbours of the sampled centroids. Clouds come from .npy files in float64."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def farthest_point_sample(xyz, npoint):
    """xyz: (B, N, 3) -> (B, npoint) indices."""
    B, N, _ = xyz.shape
    device = xyz.device
    centroids = torch.zeros(B, npoint, dtype=torch.long, device=device)
    distance = torch.ones(B, N) * 1e10  # expect: DEV006
    farthest = torch.randint(0, N, (B,), dtype=torch.long, device=device)
    batch_indices = torch.arange(B, dtype=torch.long, device=device)
    for i in range(npoint):
        centroids[:, i] = farthest
        centroid = xyz[batch_indices, farthest, :].view(B, 1, 3)
        dist = torch.sum((xyz - centroid) ** 2, -1)
        mask = dist < distance
        distance[mask] = dist[mask]
        farthest = torch.max(distance, -1)[1]
    return centroids


def knn(x, k):
    """x: (B, C, N) -> (B, N, k) neighbour indices."""
    inner = -2 * torch.matmul(x.transpose(2, 1), x)
    xx = torch.sum(x ** 2, dim=1, keepdim=True)
    pairwise = -xx - inner - xx.transpose(2, 1)
    return pairwise.topk(k=k, dim=-1)[1]


def get_graph_feature(x, k=8):
    B, C, N = x.shape
    idx = knn(x, k)
    idx_base = torch.arange(0, B, device=x.device).view(-1, 1, 1) * N
    idx = (idx + idx_base).view(-1)
    x_t = x.transpose(2, 1).contiguous()
    feature = x_t.view(B * N, -1)[idx, :].view(B, N, k, C)
    x_rep = x_t.view(B, N, 1, C).repeat(1, 1, k, 1)
    return torch.cat((feature - x_rep, x_rep), dim=3).permute(0, 3, 1, 2).contiguous()


class SampledEdgeConv(nn.Module):
    def __init__(self, npoint=32, k=8, n_classes=5):
        super().__init__()
        self.npoint, self.k = npoint, k
        self.edge = nn.Sequential(nn.Conv2d(6, 64, 1, bias=False), nn.BatchNorm2d(64), nn.LeakyReLU(0.2))
        self.head = nn.Linear(64, n_classes)

    def forward(self, xyz):
        idx = farthest_point_sample(xyz, self.npoint)
        sampled = torch.gather(xyz, 1, idx.unsqueeze(-1).expand(-1, -1, 3))
        feat = self.edge(get_graph_feature(sampled.transpose(1, 2), self.k))
        feat = feat.max(dim=-1)[0].max(dim=-1)[0]
        return self.head(feat)


def load_clouds(n, n_points=128, seed=0):
    rng = np.random.default_rng(seed)
    clouds = rng.normal(size=(n, n_points, 3))  # float64, like np.load of the raw scans
    labels = rng.integers(0, 5, size=n)
    return clouds, labels


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = SampledEdgeConv().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    clouds, labels = load_clouds(16)
    for step in range(3):
        pts = torch.from_numpy(clouds).to(device)
        pts = pts.type(torch.FloatTensor)  # expect: DEV021
        y = torch.from_numpy(labels).to(device)
        loss = F.cross_entropy(model(pts), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, round(loss.item(), 4))


if __name__ == "__main__":
    main()
