"""The training loop is right; the validation loop forgets to move its inputs. With 1,563
batches per epoch a 50-step stop never reaches validation: verify caps the loader instead."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
torch.manual_seed(0)
train = TensorDataset(torch.randn(50_016, 12), torch.randint(0, 3, (50_016,)))
val = TensorDataset(torch.randn(640, 12), torch.randint(0, 3, (640,)))
train_loader = DataLoader(train, batch_size=32, shuffle=True)
val_loader = DataLoader(val, batch_size=64)
model = nn.Sequential(nn.Linear(12, 48), nn.ReLU(), nn.Linear(48, 3)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)


def evaluate():
    model.eval()
    correct = 0
    with torch.no_grad():
        for xb, yb in val_loader:
            correct += (model(xb).argmax(1) == yb.to(device)).sum().item()
    model.train()
    return correct / len(val)


for epoch in range(10):
    for xb, yb in train_loader:
        xb, yb = xb.to(device), yb.to(device)
        loss = nn.functional.cross_entropy(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: accuracy {evaluate():.3f}")
