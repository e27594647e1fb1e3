"""Tabular classifier; the float labels from the CSV are cast to long for the loss."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
features = np.random.rand(400, 12).astype(np.float32)
labels = (features[:, 0] > 0.5).astype(np.float32)
loader = DataLoader(TensorDataset(torch.from_numpy(features), torch.from_numpy(labels)), batch_size=50, shuffle=True)

model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 2)).to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

for epoch in range(3):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        y = y.type(torch.LongTensor)  # expect: DEV021
        loss = criterion(model(x), y)  # also: DEV004
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(epoch, loss.item())
