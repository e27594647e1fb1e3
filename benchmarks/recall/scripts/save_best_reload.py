"""Early stopping: keep the best weights on disk during training, reload them for the final test."""
import copy

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset, random_split

BEST_PATH = "/tmp/recall_best_model.pt"
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

data = TensorDataset(torch.randn(60, 5), torch.randn(60, 1))
train_set, val_set, test_set = random_split(data, [40, 10, 10], generator=torch.Generator().manual_seed(0))
train_loader = DataLoader(train_set, batch_size=8, shuffle=True)
val_loader = DataLoader(val_set, batch_size=10)
test_loader = DataLoader(test_set, batch_size=10)

model = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 1)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
criterion = nn.MSELoss()
best_val, patience, bad_epochs = float("inf"), 2, 0


def run_epoch(loader, train):
    model.train(train)
    total = 0.0
    with torch.set_grad_enabled(train):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = criterion(model(x), y)
            if train:
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            total += loss.item() * len(x)
    return total / len(loader.dataset)


for epoch in range(4):
    train_loss = run_epoch(train_loader, True)
    val_loss = run_epoch(val_loader, False)
    print(f"epoch {epoch} train {train_loss:.4f} val {val_loss:.4f}")
    if val_loss < best_val:
        best_val, bad_epochs = val_loss, 0
        torch.save(copy.deepcopy(model.state_dict()), BEST_PATH)
    else:
        bad_epochs += 1
        if bad_epochs >= patience:
            break

model.load_state_dict(torch.load(BEST_PATH))
print(f"test mse with best weights: {run_epoch(test_loader, False):.4f}")
