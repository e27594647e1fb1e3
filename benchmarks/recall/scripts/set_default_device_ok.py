"""Script that sets the default device once, so factories without device= already land on it."""
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"
torch.set_default_device(device)


class Attention(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        T = x.size(1)
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        att = (q @ k.transpose(-2, -1)) / q.size(-1) ** 0.5
        att = att.masked_fill(~causal, float("-inf")).softmax(-1)
        return self.proj(att @ v)


model = nn.Sequential(Attention(), nn.LayerNorm(16), nn.Linear(16, 4))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
data = torch.randn(24, 6, 16)
labels = torch.randint(0, 4, (24, 6))

for step in range(3):
    idx = torch.randint(0, len(data), (8,))
    x, y = data[idx], labels[idx]
    x = x + 0.01 * torch.randn(x.shape)
    loss = F.cross_entropy(model(x).reshape(-1, 4), y.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f}")
