"""Click-through-rate prediction with a DeepFM over six hashed categorical fields.

Threads: https://github.com/HoyTta0/KnowledgeDistillation/issues/9 (Expected object of device
type cuda but got device type cpu for argument #2 'target' in call to _thnn_nll_loss_forward)
and https://github.com/pytorch/pytorch/issues/2830 (moving the model between devices inside the
training loop, and what the optimizer then holds).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

N_FIELDS, HASH = 6, 1000


class DeepFM(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.emb = nn.Embedding(N_FIELDS * HASH, d)
        self.lin = nn.Embedding(N_FIELDS * HASH, 1)
        self.mlp = nn.Sequential(nn.Linear(N_FIELDS * d, 64), nn.ReLU(), nn.Linear(64, 1))
        self.register_buffer("field_offset", torch.arange(N_FIELDS) * HASH)

    def forward(self, fields):
        idx = fields + self.field_offset
        e = self.emb(idx)
        fm = 0.5 * (e.sum(1).pow(2) - e.pow(2).sum(1)).sum(1)
        return self.lin(idx).sum((1, 2)) + fm + self.mlp(e.flatten(1)).squeeze(1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    fields = torch.randint(0, HASH, (2048, N_FIELDS))
    clicks = (torch.rand(2048) < 0.2).float()
    loader = DataLoader(TensorDataset(fields, clicks), batch_size=256, shuffle=True)
    model = DeepFM()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        model.to(device)  # expect: DEV007
        model.train()
        seen, total = 0, 0.0
        for x, y in loader:
            x = x.to(device)
            logit = model(x)
            loss = F.binary_cross_entropy_with_logits(logit, y)  # expect: DEV004
            opt.zero_grad()
            loss.backward()
            opt.step()
            seen += y.numel()
            total += loss.item() * y.numel()
        print(f"epoch {epoch}: logloss {total / seen:.4f}")


if __name__ == "__main__":
    main()
