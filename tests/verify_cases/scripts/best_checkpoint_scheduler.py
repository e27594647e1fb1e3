"""Epoch-end work: a StepLR schedule, a validation pass, and the best model saved and
reloaded for a final test. The checkpoint is written on the device and read back with
map_location."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset, random_split

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
torch.manual_seed(0)
data = TensorDataset(torch.randn(3000, 10), torch.randn(3000, 1))
train, val = random_split(data, [2500, 500], generator=torch.Generator().manual_seed(0))
train_loader = DataLoader(train, batch_size=50, shuffle=True)
val_loader = DataLoader(val, batch_size=100)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.5)
best = float("inf")
for epoch in range(30):
    model.train()
    for xb, yb in train_loader:
        xb, yb = xb.to(device), yb.to(device)
        loss = nn.functional.mse_loss(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    scheduler.step()
    model.eval()
    with torch.no_grad():
        val_loss = sum(nn.functional.mse_loss(model(x.to(device)), y.to(device)).item()
                       for x, y in val_loader) / len(val_loader)
    if val_loss < best:
        best = val_loss
        torch.save(model.state_dict(), "best.pt")
model.load_state_dict(torch.load("best.pt", map_location=device))
print("best", best)
