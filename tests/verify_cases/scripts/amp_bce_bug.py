"""sigmoid + binary_cross_entropy inside autocast: a GPU refuses it ("unsafe to autocast")."""
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
scaler = torch.amp.GradScaler(device)
for step in range(30):
    x = torch.randn(32, 10, device=device)
    target = (x[:, :1] > 0).float()
    with torch.autocast(device_type=device):
        prob = torch.sigmoid(model(x))
        loss = nn.functional.binary_cross_entropy(prob, target)
    optimizer.zero_grad()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
