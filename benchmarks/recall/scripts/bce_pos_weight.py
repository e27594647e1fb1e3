"""Multi-label tagging with BCEWithLogitsLoss; pos_weight balances rare tags."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

N_TAGS = 5
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

features = torch.randn(48, 20)
tags = (torch.rand(48, N_TAGS) < torch.tensor([0.5, 0.3, 0.1, 0.05, 0.2])).float()
positives = tags.sum(0).clamp(min=1)
pos_weight = (len(tags) - positives) / positives

model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, N_TAGS))
model.to(device)
loss_fn = nn.BCEWithLogitsLoss(pos_weight=pos_weight)  # expect: DEV012
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
loader = DataLoader(TensorDataset(features, tags), batch_size=16, shuffle=True)


def f1_at(logits, target, threshold=0.5):
    pred = (torch.sigmoid(logits) > threshold).float()
    tp = (pred * target).sum()
    return (2 * tp / (pred.sum() + target.sum() + 1e-8)).item()


for epoch in range(2):
    model.train()
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        logits = model(x)
        loss = loss_fn(logits, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f} micro-F1 {f1_at(logits, y):.3f}")
