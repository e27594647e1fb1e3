"""Tabular classifier: entity embeddings for categoricals + standardised numerics."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

CAT_COLS = {"region": 7, "product": 12, "channel": 3}
N_CONT = 5


class TabularDataset(Dataset):
    def __init__(self, n=512, seed=0):
        rng = np.random.default_rng(seed)
        self.cats = np.stack([rng.integers(0, card, n) for card in CAT_COLS.values()], 1)
        self.conts = rng.normal(loc=3.0, scale=2.0, size=(n, N_CONT))  # float64 from pandas
        self.y = (self.conts[:, 0] + self.cats[:, 0] > 5).astype(np.int64)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return torch.from_numpy(self.cats[i]), torch.from_numpy(self.conts[i]), self.y[i]


def emb_size(card):
    return min(16, (card + 1) // 2)


class TabularNet(nn.Module):
    def __init__(self, cont_mean, cont_std, hidden=64):
        super().__init__()
        self.embeds = {name: nn.Embedding(card, emb_size(card))  # expect: DEV009
                       for name, card in CAT_COLS.items()}
        self.cont_mean = torch.tensor(cont_mean, dtype=torch.float32)  # expect: DEV010
        self.cont_std = nn.Parameter(torch.tensor(cont_std, dtype=torch.float32), requires_grad=False)
        n_emb = sum(emb_size(c) for c in CAT_COLS.values())
        self.bn = nn.BatchNorm1d(N_CONT)
        self.mlp = nn.Sequential(nn.Linear(n_emb + N_CONT, hidden), nn.ReLU(),
                                 nn.Dropout(0.1), nn.Linear(hidden, 2))

    def forward(self, x_cat, x_cont):
        embs = [emb(x_cat[:, i]) for i, emb in enumerate(self.embeds.values())]
        x_cont = (x_cont - self.cont_mean) / self.cont_std
        x = torch.cat(embs + [self.bn(x_cont)], dim=1)
        return self.mlp(x)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ds = TabularDataset()
    mean, std = ds.conts.mean(0), ds.conts.std(0)
    loader = DataLoader(ds, batch_size=64, shuffle=True)

    model = TabularNet(mean, std).to(device)
    params = [p for p in model.parameters() if p.requires_grad]
    params += [p for e in model.embeds.values() for p in e.parameters()]
    opt = torch.optim.AdamW(params, lr=1e-3)
    crit = nn.CrossEntropyLoss()

    for epoch in range(3):
        correct = 0
        for x_cat, x_cont, y in loader:
            x_cat, x_cont, y = x_cat.to(device), x_cont.to(device), y.to(device)
            x_cont = x_cont.type(torch.FloatTensor)  # expect: DEV021
            out = model(x_cat, x_cont)
            loss = crit(out, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            correct += (out.argmax(1) == y).sum().item()
        print(f"epoch {epoch} loss {loss.item():.3f} acc {correct / len(ds):.3f}")


if __name__ == "__main__":
    main()
