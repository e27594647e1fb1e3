"""Loan table, multi-label heads (default / prepay / late) on top of a shared trunk.

Numeric columns are standardized inside the model with statistics from the
training split; the evaluation uses temperature-scaled probabilities.
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

N_NUM, CARDS, TASKS = 5, [8, 4], ["default", "prepay", "late"]


def loan_table(n=2500, seed=0):
    rng = np.random.default_rng(seed)
    num = rng.normal(size=(n, N_NUM)) * [1.0, 3.0, 0.5, 10.0, 2.0] + [0.0, 10.0, 1.0, 50.0, -2.0]
    cat = np.stack([rng.integers(0, c, n) for c in CARDS], axis=1)
    z = (num - num.mean(0)) / num.std(0)
    logits = np.stack([z[:, 0] - 2.0, z[:, 1] + 0.2 * cat[:, 0] - 2.5, -z[:, 3] + 0.5 * (cat[:, 1] == 2) - 1.5], 1)
    y = (rng.random((n, len(TASKS))) < 1 / (1 + np.exp(-logits))).astype(np.float32)
    return torch.tensor(num, dtype=torch.float32), torch.from_numpy(cat).long(), torch.from_numpy(y)


class LoanNet(nn.Module):
    def __init__(self, num_mean, num_std, n_out=1, emb=6, hidden=96):
        super().__init__()
        self.register_buffer("num_mean", num_mean)
        self.register_buffer("num_std", num_std)
        self.embs = nn.ModuleList([nn.Embedding(c, emb) for c in CARDS])
        self.trunk = nn.Sequential(nn.Linear(N_NUM + emb * len(CARDS), hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.head = nn.Linear(hidden, n_out)

    def forward(self, num, cat):
        z = (num - self.num_mean) / self.num_std
        e = torch.cat([m(cat[:, i]) for i, m in enumerate(self.embs)], dim=1)
        return self.head(self.trunk(torch.cat([z, e], dim=1)))


def main():
    torch.manual_seed(0)
    if torch.cuda.device_count() > 1:
        device = torch.device("cuda:1")  # the first card runs the scoring service
    elif torch.cuda.is_available():
        device = torch.device("cuda")
    else:
        device = torch.device("cpu")

    num, cat, y = loan_table()
    n_train = 2000
    model = LoanNet(num[:n_train].mean(0), num[:n_train].std(0))
    model.head = nn.Linear(model.head.in_features, len(TASKS))
    model.to(device)

    pos_rate = y[:n_train].mean(0)
    criterion = nn.BCEWithLogitsLoss(pos_weight=((1 - pos_rate) / pos_rate).to(device))
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)
    train_loader = DataLoader(TensorDataset(num[:n_train], cat[:n_train], y[:n_train]), batch_size=128, shuffle=True)
    val_loader = DataLoader(TensorDataset(num[n_train:], cat[n_train:], y[n_train:]), batch_size=500)

    for epoch in range(4):
        model.train()
        for xn, xc, yb in train_loader:
            xn, xc, yb = xn.to(device), xc.to(device), yb.to(device)
            loss = criterion(model(xn, xc), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}  loss {loss.item():.4f}")

    temperature = torch.tensor(1.3)
    model.eval()
    with torch.no_grad():
        for xn, xc, yb in val_loader:
            probs = torch.sigmoid(model(xn.to(device), xc.to(device)) / temperature)
            hits = ((probs > 0.5).float() == yb.to(device)).float().mean(0)
            for name, acc in zip(TASKS, hits.tolist()):
                print(f"{name:8s} acc {acc:.3f}")


if __name__ == "__main__":
    main()
