"""Cluster the penultimate-layer embeddings of a small autoencoder with k-means and report the
adjusted Rand index against the generating clusters."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.cluster import KMeans
from sklearn.metrics import adjusted_rand_score


class AE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(30, 16), nn.ReLU(), nn.Linear(16, 4))
        self.dec = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 30))

    def forward(self, x):
        z = self.enc(x)
        return self.dec(z), z


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    centers = torch.randn(3, 30) * 3
    gt = torch.randint(0, 3, (600,))
    data = centers[gt] + torch.randn(600, 30)
    model = AE().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(30):
        for i in range(0, 600, 100):
            xb = data[i:i + 100].to(device)
            rec, _ = model(xb)
            loss = F.mse_loss(rec, xb)
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    zs = []
    with torch.no_grad():
        for i in range(0, 600, 200):
            _, z = model(data[i:i + 200].to(device))
            zs.append(z)
    emb = torch.cat(zs)
    clusters = KMeans(n_clusters=3, n_init=4, random_state=0).fit_predict(emb)  # expect: DEV011
    print("ARI", adjusted_rand_score(gt.numpy(), clusters))


if __name__ == "__main__":
    main()
