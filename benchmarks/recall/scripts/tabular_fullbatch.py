"""Full-batch training of a house-price regressor on standardised numpy features (no DataLoader)."""
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(42)
X = rng.normal(size=(200, 8)).astype(np.float32)
true_w = rng.normal(size=(8, 1)).astype(np.float32)
y = X @ true_w + 0.1 * rng.normal(size=(200, 1)).astype(np.float32)
X = (X - X.mean(0)) / X.std(0)

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
X_train = torch.from_numpy(X[:160]).to(device)
y_train = torch.from_numpy(y[:160])
X_val = torch.from_numpy(X[160:]).to(device)
y_val = torch.from_numpy(y[160:]).to(device)

model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)
optimizer = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=5)
loss_fn = nn.MSELoss()


def closure():
    optimizer.zero_grad()
    loss = loss_fn(model(X_train), y_train)  # expect: DEV004
    loss.backward()
    return loss


for it in range(3):
    train_loss = optimizer.step(closure)
    with torch.no_grad():
        val_loss = loss_fn(model(X_val), y_val)
    print(f"iter {it} train {train_loss.item():.4f} val {val_loss.item():.4f}")
