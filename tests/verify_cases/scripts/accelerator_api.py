"""torch 2.x's device-neutral API: torch.accelerator picks whatever the machine has."""
import torch
import torch.nn as nn

if torch.accelerator.is_available():
    device = torch.accelerator.current_accelerator()
else:
    device = torch.device("cpu")
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 16), nn.GELU(), nn.Linear(16, 2)).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
data = torch.randn(128, 16)
labels = (data[:, 0] > 0).long()
for step in range(60):
    xb = data[step % 4 * 32:(step % 4 + 1) * 32].to(device)
    yb = labels[step % 4 * 32:(step % 4 + 1) * 32].to(device)
    loss = nn.functional.cross_entropy(model(xb), yb)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
