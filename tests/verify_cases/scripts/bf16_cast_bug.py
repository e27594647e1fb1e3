"""bfloat16 "as modern GPUs train": on a GPU the model itself is cast to bfloat16, where autocast
was meant. It runs on every device without an error, but on the GPU the weights keep 8 bits of
mantissa: AdamW's steps of ~1e-4 round away on most of them, and the loss itself is a bfloat16.
Only the losses tell: the GPU's part from the CPU's from the first step and stop falling."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
dtype = torch.bfloat16 if device.type == "cuda" else torch.float32
torch.manual_seed(0)
X = torch.randn(8192, 32)
y = (X[:, :8].sum(dim=1) > 0).long() + (X[:, 8:16].sum(dim=1) > 0).long()
loader = DataLoader(TensorDataset(X, y), batch_size=64, shuffle=True)
model = nn.Sequential(nn.Linear(32, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(),
                      nn.Linear(256, 3)).to(device, dtype)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
for epoch in range(10):
    for xb, yb in loader:
        xb, yb = xb.to(device, dtype), yb.to(device)
        loss = nn.functional.cross_entropy(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
