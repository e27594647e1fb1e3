"""Embed a validation set with a trained encoder and project it with t-SNE for a figure."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import torch
import torch.nn as nn
from sklearn.manifold import TSNE
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
encoder = nn.Sequential(nn.Linear(30, 64), nn.ReLU(), nn.Linear(64, 8)).to(device).eval()
val = DataLoader(TensorDataset(torch.randn(300, 30), torch.randint(0, 3, (300,))), batch_size=100)

embeddings, colours = [], []
with torch.no_grad():
    for x, y in val:
        embeddings.append(encoder(x.to(device)))
        colours.extend(y.tolist())

points = TSNE(n_components=2, perplexity=20, init="pca").fit_transform(torch.cat(embeddings))  # expect: DEV011
plt.scatter(points[:, 0], points[:, 1], c=colours, s=6, cmap="tab10")
plt.savefig("tsne.png", dpi=120)
