"""Retrieval evaluation for an embedding model: embed a gallery and a query set,
build a flat inner-product index in NumPy (same maths as faiss.IndexFlatIP) and
report recall@k and mAP@R."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Embedder(nn.Module):
    def __init__(self, n_in=32, dim=16):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(n_in, 64), nn.ReLU(), nn.Linear(64, dim))

    def forward(self, x):
        return F.normalize(self.mlp(x), dim=-1)


class FlatIPIndex:
    def __init__(self, dim):
        self.dim = dim
        self.xb = np.zeros((0, dim), dtype="float32")

    def add(self, xb):
        assert xb.shape[1] == self.dim
        self.xb = np.concatenate([self.xb, np.ascontiguousarray(xb, dtype="float32")])

    def search(self, xq, k):
        sims = xq @ self.xb.T
        idx = np.argsort(-sims, axis=1)[:, :k]
        return np.take_along_axis(sims, idx, axis=1), idx


def synthetic_split(n, n_classes=5, seed=0):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(n_classes, 32, generator=torch.Generator().manual_seed(99))
    y = torch.randint(0, n_classes, (n,), generator=g)
    x = centers[y] + 0.5 * torch.randn(n, 32, generator=g)
    return TensorDataset(x, y)


@torch.no_grad()
def embed_gallery(model, loader, device):
    embs, labels = [], []
    for x, y in loader:
        embs.append(model(x.to(device)))
        labels.append(y)
    return torch.cat(embs).numpy(), torch.cat(labels).numpy()  # expect: DEV011


def main(k=5):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Embedder().to(device).eval()
    gallery_loader = DataLoader(synthetic_split(300, seed=1), batch_size=64)
    query_loader = DataLoader(synthetic_split(60, seed=2), batch_size=64)

    xb, yb = embed_gallery(model, gallery_loader, device)
    index = FlatIPIndex(xb.shape[1])
    index.add(xb)

    hits, aps = [], []
    with torch.no_grad():
        for q, qy in query_loader:
            q_emb = model(q)  # expect: DEV002
            _, nn_idx = index.search(q_emb.cpu().numpy(), k)
            match = yb[nn_idx] == qy.numpy()[:, None]
            hits.append(match.any(1))
            prec = np.cumsum(match, 1) / np.arange(1, k + 1)
            aps.append((prec * match).sum(1) / np.maximum(match.sum(1), 1))
    print(f"recall@{k}: {np.concatenate(hits).mean():.3f}  mAP@{k}: {np.concatenate(aps).mean():.3f}")


if __name__ == "__main__":
    main()
