"""EdgeConv (DGCNN) classifier for small synthetic point clouds: k nearest neighbours per point,
edge features gathered through flattened neighbour indices.

Thread: https://github.com/open-mmlab/mmdetection3d/pull/360 (review of the knn op: an index
tensor made without the points' device "triggers a device inconsistency error"; use
center_xyz.new_zeros).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def knn(x, k):
    inner = -2 * torch.matmul(x.transpose(2, 1), x)
    xx = (x ** 2).sum(1, keepdim=True)
    dist = -xx - inner - xx.transpose(2, 1)
    return dist.topk(k=k, dim=-1).indices


def edge_features(x, k):
    B, C, N = x.shape
    idx = knn(x, k)
    idx_base = torch.arange(B).view(-1, 1, 1) * N  # expect: DEV006
    idx = (idx + idx_base).view(-1)
    pts = x.transpose(2, 1).contiguous()
    neigh = pts.view(B * N, C)[idx].view(B, N, k, C)
    centre = pts.view(B, N, 1, C).expand(-1, -1, k, -1)
    return torch.cat([neigh - centre, centre], dim=3).permute(0, 3, 1, 2)


class DGCNN(nn.Module):
    def __init__(self, k=8, classes=5):
        super().__init__()
        self.k = k
        self.conv1 = nn.Sequential(nn.Conv2d(6, 32, 1), nn.BatchNorm2d(32), nn.LeakyReLU(0.2))
        self.conv2 = nn.Sequential(nn.Conv2d(64, 64, 1), nn.BatchNorm2d(64), nn.LeakyReLU(0.2))
        self.head = nn.Linear(96, classes)

    def forward(self, x):
        x1 = self.conv1(edge_features(x, self.k)).max(-1).values
        x2 = self.conv2(edge_features(x1, self.k)).max(-1).values
        return self.head(torch.cat([x1, x2], 1).max(-1).values)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    labels = torch.randint(0, 5, (96,))
    clouds = torch.randn(96, 3, 128) * (1 + labels.view(-1, 1, 1) * 0.3)
    loader = DataLoader(TensorDataset(clouds, labels), batch_size=16, shuffle=True)
    model = DGCNN().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(2):
        correct = 0
        for pts, y in loader:
            pts, y = pts.to(device), y.to(device)
            logits = model(pts)
            loss = F.cross_entropy(logits, y, label_smoothing=0.2)
            opt.zero_grad()
            loss.backward()
            opt.step()
            correct += (logits.argmax(1) == y).sum().item()
        print(f"epoch {epoch}: train acc {correct / len(labels):.2f}")


if __name__ == "__main__":
    main()
