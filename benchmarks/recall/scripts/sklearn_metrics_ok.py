"""Confusion matrix and per-class F1 with scikit-learn; tensors come back to the host before numpy."""
import numpy as np
import torch
import torch.nn as nn
from sklearn.metrics import classification_report, confusion_matrix
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Sequential(nn.Linear(6, 24), nn.ReLU(), nn.Linear(24, 3)).to(device)
X = torch.randn(60, 6)
y = torch.randint(0, 3, (60,))
loader = DataLoader(TensorDataset(X, y), batch_size=20)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

for xb, yb in loader:
    xb, yb = xb.to(device), yb.to(device)
    loss = nn.functional.cross_entropy(model(xb), yb)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

model.eval()
all_preds, all_labels, all_conf = [], [], []
with torch.no_grad():
    for xb, yb in loader:
        logits = model(xb.to(device))
        conf, pred = torch.softmax(logits, 1).max(1)
        all_preds.append(pred.cpu().numpy())
        all_conf.extend(conf.tolist())
        all_labels.append(yb.numpy())
        running_loss = nn.functional.cross_entropy(logits, yb.to(device)).item()

preds, labels = np.concatenate(all_preds), np.concatenate(all_labels)
print(confusion_matrix(labels, preds))
print(classification_report(labels, preds, zero_division=0))
print(f"mean confidence {np.mean(all_conf):.3f}, last batch loss {running_loss:.4f}")
embeddings = model[0](X.to(device)).detach().cpu().numpy()
print("embedding matrix", embeddings.shape)
