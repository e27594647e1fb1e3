"""After training a small encoder with a classification head, the validation embeddings are
collected batch by batch, projected to 2-D with torch.pca_lowrank and drawn as a scatter plot.

Thread: https://github.com/udacity/deep-learning-v2-pytorch/issues/121 (Visualize Sample Test
Results: can't convert CUDA tensor to numpy when plotting after training on the GPU).
"""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Encoder(nn.Module):
    def __init__(self, d_in=30, d_emb=16, n_classes=4):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, 64), nn.ReLU(), nn.Linear(64, d_emb))
        self.head = nn.Linear(d_emb, n_classes)

    def embed(self, x):
        return F.normalize(self.body(x), dim=-1)

    def forward(self, x):
        return self.head(self.embed(x))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    centers = torch.randn(4, 30) * 2
    y_all = torch.randint(0, 4, (1200,))
    x_all = centers[y_all] + torch.randn(1200, 30)
    train = DataLoader(TensorDataset(x_all[:1000], y_all[:1000]), batch_size=64, shuffle=True)
    val = DataLoader(TensorDataset(x_all[1000:], y_all[1000:]), batch_size=64)
    model = Encoder().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        for x, y in train:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    embs, labels = [], []
    with torch.no_grad():
        for x, y in val:
            embs.append(model.embed(x.to(device)))
            labels.append(y)
    emb, lab = torch.cat(embs), torch.cat(labels)
    centered = emb - emb.mean(0)
    _, _, v = torch.pca_lowrank(centered, q=2)
    proj = centered @ v[:, :2]
    fig, ax = plt.subplots(figsize=(5, 5))
    ax.scatter(proj[:, 0], proj[:, 1], c=lab, s=8, cmap="tab10")  # expect: DEV011
    fig.savefig("val_embeddings.png")


if __name__ == "__main__":
    main()
