"""Validation with a scikit-learn classification report and ROC AUC after every epoch."""
import numpy as np
import torch
import torch.nn as nn
from sklearn.metrics import f1_score, roc_auc_score
from torch.utils.data import DataLoader, TensorDataset


def build_model():
    return nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 2))


def validate(model, loader, device):
    model.eval()
    y_true, y_pred, y_score = [], [], []
    with torch.no_grad():
        for features, labels in loader:
            features, labels = features.to(device), labels.to(device)
            logits = model(features)
            probs = torch.softmax(logits, dim=1)[:, 1]
            y_score.extend(probs.numpy())  # expect: DEV011
            y_pred.extend(logits.argmax(dim=1).tolist())
            y_true.extend(labels.numpy())  # expect: DEV011
    y_true, y_pred = np.array(y_true), np.array(y_pred)
    return f1_score(y_true, y_pred, average="macro"), roc_auc_score(y_true, np.array(y_score))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 12)).astype(np.float32)
    y = (X[:, 0] + 0.5 * rng.normal(size=80) > 0).astype(np.int64)
    dataset = TensorDataset(torch.from_numpy(X), torch.from_numpy(y))
    train_loader = DataLoader(dataset, batch_size=16, shuffle=True)
    val_loader = DataLoader(dataset, batch_size=40)
    model = build_model().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(2):
        model.train()
        for features, labels in train_loader:
            features, labels = features.to(device), labels.to(device)
            loss = criterion(model(features), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        f1, auc = validate(model, val_loader, device)
        print(f"epoch {epoch}: loss {loss.item():.4f} macro-F1 {f1:.3f} AUC {auc:.3f}")


if __name__ == "__main__":
    main()
