"""CNN training with a shape sanity check on the first batch before the real loop starts."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
train_loader = DataLoader(TensorDataset(torch.randn(32, 1, 14, 14), torch.randint(0, 10, (32,))), batch_size=8, shuffle=True)

model = nn.Sequential(
    nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
    nn.Flatten(), nn.Linear(8 * 7 * 7, 10),
).to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

# sanity check: one forward pass on a real batch before spending time on training
inputs, targets = next(iter(train_loader))
inputs, targets = inputs.to(device), targets.to(device)  # expect: DEV003
with torch.no_grad():
    out = model(inputs)
assert out.shape == (inputs.size(0), 10), out.shape
print("sanity check passed:", tuple(out.shape))

for epoch in range(2):
    model.train()
    running = 0.0
    for inputs, targets in train_loader:
        optimizer.zero_grad()
        loss = criterion(model(inputs), targets)  # also: DEV002, DEV004
        loss.backward()
        optimizer.step()
        running += loss.item()
    print(f"epoch {epoch} loss {running / len(train_loader):.4f}")
