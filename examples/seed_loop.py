"""The seed's loop, done right: pick the device once with a fallback, move the model once,
move every batch inside the inner loop. Runs on CPU or GPU with the same mathematics."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

X = torch.randn(256, 4)
y = X @ torch.tensor([[1.0], [-2.0], [0.5], [3.0]]) + 0.1 * torch.randn(256, 1)
loader = DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True)

model = nn.Linear(4, 1).to(device)
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)

for epoch in range(5):
    for inputs, targets in loader:
        inputs, targets = inputs.to(device), targets.to(device)
        optimizer.zero_grad()
        loss = criterion(model(inputs), targets)
        loss.backward()
        optimizer.step()
        print(f"loss {loss.item():.6f}")
