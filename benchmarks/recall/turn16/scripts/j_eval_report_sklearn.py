"""Text-ish classifier on bag-of-features, evaluated with sklearn + plots of the score distribution."""
import os
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn
from sklearn.metrics import f1_score, roc_auc_score, confusion_matrix
from torch.utils.data import DataLoader, Dataset

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class BowDataset(Dataset):
    def __init__(self, n, vocab=200, seed=0):
        rng = np.random.default_rng(seed)
        self.x = rng.poisson(0.3, size=(n, vocab)).astype(np.float32)
        w = rng.normal(size=vocab)
        self.y = (self.x @ w > 0).astype(np.int64)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return torch.from_numpy(self.x[i]), torch.tensor(self.y[i])


class Mlp(nn.Module):
    def __init__(self, vocab=200, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(vocab, hidden), nn.ReLU(), nn.Dropout(0.2), nn.Linear(hidden, 2))

    def forward(self, x):
        return self.net(x)


def evaluate(model, loader):
    model.eval()
    probs, labels, losses = [], [], []
    crit = nn.CrossEntropyLoss(reduction="none")
    with torch.no_grad():
        for xb, yb in loader:
            xb, yb = xb.to(DEVICE), yb.to(DEVICE)
            logits = model(xb)
            losses.append(crit(logits, yb).cpu())
            probs.append(logits.softmax(-1)[:, 1].cpu())
            labels.append(yb.cpu())
    probs = torch.cat(probs).numpy()
    labels = torch.cat(labels).numpy()
    losses = torch.cat(losses).numpy()
    preds = (probs > 0.5).astype(int)
    return {
        "auc": roc_auc_score(labels, probs),
        "f1": f1_score(labels, preds),
        "cm": confusion_matrix(labels, preds),
        "probs": probs,
        "labels": labels,
        "losses": losses,
    }


def main():
    train_dl = DataLoader(BowDataset(512, seed=1), batch_size=64, shuffle=True)
    val_dl = DataLoader(BowDataset(256, seed=2), batch_size=64)

    model = Mlp().to(DEVICE)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    crit = nn.CrossEntropyLoss()

    history = []
    for epoch in range(3):
        model.train()
        for xb, yb in train_dl:
            xb, yb = xb.to(DEVICE), yb.to(DEVICE)
            loss = crit(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        res = evaluate(model, val_dl)
        history.append(res["auc"])
        print(f"epoch {epoch} auc={res['auc']:.3f} f1={res['f1']:.3f}")

    print(res["cm"])
    outdir = tempfile.mkdtemp()
    fig, ax = plt.subplots(1, 2, figsize=(8, 3))
    ax[0].hist(res["probs"][res["labels"] == 0], bins=20, alpha=0.5, label="neg")
    ax[0].hist(res["probs"][res["labels"] == 1], bins=20, alpha=0.5, label="pos")
    ax[0].legend()
    ax[1].plot(history, marker="o")
    fig.savefig(os.path.join(outdir, "val.png"))
    print("worst losses:", np.sort(res["losses"])[-5:])


if __name__ == "__main__":
    main()
