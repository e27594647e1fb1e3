"""DGCNN-style point-cloud classifier: k-nearest-neighbour graph features, stacked edge convolutions."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def knn(x, k):
    # x: (B, C, N)
    inner = -2 * torch.matmul(x.transpose(2, 1), x)
    sq = (x ** 2).sum(dim=1, keepdim=True)
    neg_dist = -sq - inner - sq.transpose(2, 1)
    return neg_dist.topk(k=k, dim=-1).indices  # (B, N, k)


def graph_features(x, k):
    b, c, n = x.shape
    idx = knn(x, k)
    idx_base = torch.arange(b).view(-1, 1, 1) * n  # expect: DEV006
    idx = (idx + idx_base).view(-1)
    pts = x.transpose(2, 1).contiguous()
    neigh = pts.view(b * n, -1)[idx].view(b, n, k, c)
    center = pts.view(b, n, 1, c).expand(-1, -1, k, -1)
    return torch.cat([neigh - center, center], dim=3).permute(0, 3, 1, 2).contiguous()


class EdgeConv(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.mlp = nn.Sequential(nn.Conv2d(2 * c_in, c_out, 1, bias=False), nn.BatchNorm2d(c_out), nn.LeakyReLU(0.2))

    def forward(self, x, k):
        return self.mlp(graph_features(x, k)).max(dim=-1).values


class DGCNNLite(nn.Module):
    def __init__(self, n_classes=8, k=8, widths=(32, 32, 64)):
        super().__init__()
        self.k = k
        chans = (3,) + tuple(widths)
        self.edge_convs = [EdgeConv(chans[i], chans[i + 1]) for i in range(len(widths))]  # expect: DEV009
        self.head = nn.Sequential(nn.Linear(sum(widths), 128), nn.ReLU(), nn.Dropout(0.3), nn.Linear(128, n_classes))

    def forward(self, pts):
        x, feats = pts.transpose(1, 2), []
        for conv in self.edge_convs:
            x = conv(x, self.k)
            feats.append(x)
        return self.head(torch.cat(feats, dim=1).max(dim=-1).values)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--points", type=int, default=128)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    clouds = torch.randn(64, args.points, 3)
    labels = torch.randint(0, 8, (64,))
    loader = DataLoader(TensorDataset(clouds, labels), batch_size=16, shuffle=True)
    model = DGCNNLite().to(device)
    params = list(model.parameters()) + [p for conv in model.edge_convs for p in conv.parameters()]
    opt = torch.optim.Adam(params, lr=1e-3)

    for epoch in range(args.epochs):
        model.train()
        for points, target in loader:
            target = target.to(device)
            logits = model(points)  # expect: DEV002
            loss = F.cross_entropy(logits, target, label_smoothing=0.2)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
