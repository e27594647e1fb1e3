"""Masked sequence regression with dict batches; a helper moves the batch before each step."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

INPUT_KEYS = ("values", "mask")


class Series(Dataset):
    def __init__(self, n=256, max_len=20):
        g = torch.Generator().manual_seed(4)
        self.lengths = torch.randint(5, max_len + 1, (n,), generator=g)
        self.values = torch.randn(n, max_len, generator=g)
        self.max_len = max_len

    def __len__(self):
        return len(self.lengths)

    def __getitem__(self, i):
        L = int(self.lengths[i])
        mask = torch.arange(self.max_len) < L
        vals = self.values[i] * mask
        return {"values": vals, "mask": mask, "target": vals.sum() / L}


def move_batch(batch, device):
    for key in INPUT_KEYS:
        batch[key] = batch[key].to(device)
    batch["target"].to(device)  # expect: DEV005
    return batch


class MaskedMeanNet(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.proj = nn.Linear(1, hidden)
        self.out = nn.Linear(hidden, 1)

    def forward(self, values, mask):
        h = torch.relu(self.proj(values.unsqueeze(-1)))
        m = mask.unsqueeze(-1).float()
        pooled = (h * m).sum(1) / m.sum(1).clamp(min=1.0)
        return self.out(pooled).squeeze(-1)


def run(epochs=4):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loader = DataLoader(Series(), batch_size=32, shuffle=True)
    model = MaskedMeanNet().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    mse = nn.MSELoss()
    for epoch in range(epochs):
        total = 0.0
        for batch in loader:
            batch = move_batch(batch, device)
            pred = model(batch["values"], batch["mask"])
            loss = mse(pred, batch["target"])  # also: DEV004
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch}: mse {total / len(loader):.4f}")


if __name__ == "__main__":
    run()
