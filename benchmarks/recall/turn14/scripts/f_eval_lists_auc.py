"""Binary classifier for a synthetic fraud table, reports val loss and ROC-AUC each epoch."""
import numpy as np
import torch
import torch.nn as nn
from sklearn.metrics import roc_auc_score
from torch.utils.data import DataLoader, TensorDataset, random_split


def make_table(n=2000, n_feats=12, fraud_rate=0.1, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, n_feats)).astype(np.float32)
    w = rng.normal(size=n_feats)
    logits = X @ w + np.log(fraud_rate / (1 - fraud_rate))
    y = (rng.random(n) < 1 / (1 + np.exp(-logits))).astype(np.int64)
    return TensorDataset(torch.from_numpy(X), torch.from_numpy(y))


class FraudMLP(nn.Module):
    def __init__(self, n_feats):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_feats, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Dropout(0.2),
            nn.Linear(64, 32), nn.ReLU(),
            nn.Linear(32, 1),
        )

    def forward(self, x):
        return self.net(x)


def train_one_epoch(model, loader, criterion, optimizer, device):
    model.train()
    total = 0.0
    for features, labels in loader:
        features, labels = features.to(device), labels.to(device)
        logits = model(features).squeeze(1)
        loss = criterion(logits, labels.float())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * features.size(0)
    return total / len(loader.dataset)


@torch.no_grad()
def evaluate(model, loader, criterion, device):
    model.eval()
    losses, scores, targets = [], [], []
    for features, labels in loader:
        logits = model(features.to(device)).squeeze(1)
        losses.append(criterion(logits, labels.float()).item())  # expect: DEV004
        scores.append(torch.sigmoid(logits))
        targets.append(labels)
    scores = torch.cat(scores).numpy()  # expect: DEV011
    targets = torch.cat(targets).numpy()
    return float(np.mean(losses)), roc_auc_score(targets, scores)


def main():
    torch.manual_seed(0)
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    dataset = make_table()
    train_set, val_set = random_split(dataset, [1600, 400], generator=torch.Generator().manual_seed(0))
    train_loader = DataLoader(train_set, batch_size=64, shuffle=True)
    val_loader = DataLoader(val_set, batch_size=256)

    model = FraudMLP(12).to(device)
    criterion = nn.BCEWithLogitsLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(5):
        train_loss = train_one_epoch(model, train_loader, criterion, optimizer, device)
        val_loss, val_auc = evaluate(model, val_loader, criterion, device)
        print(f"epoch {epoch}  train {train_loss:.4f}  val {val_loss:.4f}  auc {val_auc:.3f}")


if __name__ == "__main__":
    main()
