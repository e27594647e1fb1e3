"""Stochastic weight averaging: the AveragedModel is created right after the model is built."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.swa_utils import SWALR, AveragedModel, update_bn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

model = nn.Sequential(nn.Linear(10, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 3))
swa_model = AveragedModel(model)  # expect: DEV016
model = model.to(device)

loader = DataLoader(TensorDataset(torch.randn(256, 10), torch.randint(0, 3, (256,))), batch_size=32, shuffle=True)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
swa_scheduler = SWALR(optimizer, swa_lr=0.01)
for epoch in range(6):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    if epoch >= 3:
        swa_model.update_parameters(model)
        swa_scheduler.step()

update_bn(loader, swa_model, device=device)
with torch.no_grad():
    x, y = next(iter(loader))
    print((swa_model(x.to(device)).argmax(1) == y.to(device)).float().mean().item())
