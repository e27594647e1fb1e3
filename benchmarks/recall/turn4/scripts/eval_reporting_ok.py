"""Evaluation and reporting with the host copies in place: .item() losses for the curve, .tolist()
predictions, a .cpu() feature matrix for t-SNE, and np.mean over Python floats."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Sequential(nn.Linear(30, 64), nn.ReLU(), nn.Linear(64, 3)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = DataLoader(TensorDataset(torch.randn(300, 30), torch.randint(0, 3, (300,))), batch_size=100)

history = []
for epoch in range(3):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    history.append(loss.item())

feats, preds, accs = [], [], []
model.eval()
with torch.no_grad():
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        logits = model(x)
        feats.append(logits)
        preds.extend(logits.argmax(1).tolist())
        accs.append((logits.argmax(1) == y).float().mean().item())

print("accuracy", float(np.mean(accs)), "first preds", preds[:5])
matrix = torch.cat(feats).cpu().numpy()
plt.plot(history, marker="o")
plt.figure()
plt.scatter(matrix[:, 0], matrix[:, 1], c=preds, s=4)
plt.savefig("report.png")
