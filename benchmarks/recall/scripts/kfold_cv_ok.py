"""5-fold cross-validation: a fresh model per fold, moved to the device when it is built."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Subset, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
X = torch.randn(50, 8)
y = (X[:, 0] > 0).long()
dataset = TensorDataset(X, y)
folds = np.array_split(np.random.default_rng(0).permutation(len(dataset)), 5)


def make_model():
    return nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))


scores = []
for k, val_idx in enumerate(folds):
    train_idx = np.concatenate([f for i, f in enumerate(folds) if i != k])
    train_loader = DataLoader(Subset(dataset, train_idx.tolist()), batch_size=8, shuffle=True)
    val_loader = DataLoader(Subset(dataset, val_idx.tolist()), batch_size=16)
    model = make_model()
    model = model.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(2):
        for xb, yb in train_loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = nn.functional.cross_entropy(model(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    correct = 0
    with torch.no_grad():
        for xb, yb in val_loader:
            correct += (model(xb.to(device)).argmax(1).cpu() == yb).sum().item()
    scores.append(correct / len(val_idx))
    print(f"fold {k}: accuracy {scores[-1]:.3f}")
print(f"mean accuracy {np.mean(scores):.3f} +- {np.std(scores):.3f}")
