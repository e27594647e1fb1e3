"""An MLP classifier on synthetic data: labels are long tensors, loss is cross-entropy.
Device-ready: device chosen once with a fallback, model moved once, every batch moved."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

features = torch.randn(1024, 20)
labels = (features[:, :3].sum(dim=1) > 0).long() + (features[:, 3] > 1).long()
loader = DataLoader(TensorDataset(features, labels), batch_size=64, shuffle=True)

model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 3))
model = model.to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

step = 0
for epoch in range(3):
    model.train()
    for inputs, targets in loader:
        inputs, targets = inputs.to(device), targets.to(device)
        optimizer.zero_grad()
        loss = criterion(model(inputs), targets)
        loss.backward()
        optimizer.step()
        step += 1
        print(f"step {step} loss {loss.item():.6f}")
    model.eval()
    with torch.no_grad():
        correct = sum((model(x.to(device)).argmax(1).cpu() == y).sum().item() for x, y in loader)
    print(f"epoch {epoch} accuracy {correct / len(labels):.3f}")
