"""Customer table: pretrain on churn, then reuse the trunk for three product flags.

Categorical columns go through embeddings, numeric ones are standardized.
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

CAT_CARDINALITIES = [12, 5, 30]  # region, plan, acquisition channel
N_NUM = 6


def customer_table(n=3000, seed=0):
    rng = np.random.default_rng(seed)
    cats = np.stack([rng.integers(0, c, n) for c in CAT_CARDINALITIES], axis=1)
    nums = rng.normal(size=(n, N_NUM)).astype(np.float32)
    churn_logit = nums[:, 0] - 0.8 * nums[:, 1] + 0.5 * (cats[:, 1] == 0) - 1.0
    churn = (rng.random(n) < 1 / (1 + np.exp(-churn_logit))).astype(np.float32)
    flag_logits = np.stack([nums[:, 2] - 2.0, nums[:, 3] + 0.3 * cats[:, 0] / 12 - 1.5, -nums[:, 4] - 2.5], axis=1)
    flags = (rng.random((n, 3)) < 1 / (1 + np.exp(-flag_logits))).astype(np.float32)
    return torch.from_numpy(cats).long(), torch.from_numpy(nums), torch.from_numpy(churn), torch.from_numpy(flags)


class TabularNet(nn.Module):
    def __init__(self, cardinalities, n_num, out_dim, emb_dim=8, hidden=128):
        super().__init__()
        self.embeddings = nn.ModuleList([nn.Embedding(c, emb_dim) for c in cardinalities])
        self.num_norm = nn.BatchNorm1d(n_num)
        in_dim = emb_dim * len(cardinalities) + n_num
        self.trunk = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Dropout(0.1), nn.Linear(hidden, hidden), nn.ReLU())
        self.head = nn.Linear(hidden, out_dim)

    def forward(self, x_cat, x_num):
        embs = [emb(x_cat[:, i]) for i, emb in enumerate(self.embeddings)]
        h = self.trunk(torch.cat(embs + [self.num_norm(x_num)], dim=1))
        return self.head(h)


def run_epochs(model, loader, criterion, optimizer, device, epochs, tag):
    for epoch in range(epochs):
        model.train()
        total = 0.0
        for x_cat, x_num, y in loader:
            x_cat, x_num, y = x_cat.to(device), x_num.to(device), y.to(device)
            logits = model(x_cat, x_num)
            loss = criterion(logits.view_as(y), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * y.size(0)
        print(f"[{tag}] epoch {epoch}  bce {total / len(loader.dataset):.4f}")


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    cats, nums, churn, flags = customer_table()

    model = TabularNet(CAT_CARDINALITIES, N_NUM, out_dim=1).to(device)
    churn_loader = DataLoader(TensorDataset(cats, nums, churn), batch_size=128, shuffle=True)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    run_epochs(model, churn_loader, nn.BCEWithLogitsLoss(), optimizer, device, 2, "churn")

    # second task: three product flags, keep the pretrained trunk and embeddings
    model.head = nn.Linear(model.head.in_features, 3)  # expect: DEV015
    pos = flags.mean(dim=0)
    criterion = nn.BCEWithLogitsLoss(pos_weight=(1 - pos) / pos)  # expect: DEV012
    flag_loader = DataLoader(TensorDataset(cats, nums, flags), batch_size=128, shuffle=True)
    optimizer = torch.optim.Adam(
        [{"params": model.head.parameters(), "lr": 1e-3}, {"params": model.trunk.parameters(), "lr": 1e-4}]
    )
    run_epochs(model, flag_loader, criterion, optimizer, device, 2, "flags")


if __name__ == "__main__":
    main()
