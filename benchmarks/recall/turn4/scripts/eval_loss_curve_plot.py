"""Train a small autoencoder and plot the loss curve at the end."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

model = nn.Sequential(nn.Linear(64, 16), nn.ReLU(), nn.Linear(16, 64)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
data = torch.randn(1024, 64)

history = []
for epoch in range(5):
    for i in range(0, len(data), 128):
        x = data[i:i + 128].to(device)
        loss = nn.functional.mse_loss(model(x), x)
        opt.zero_grad()
        loss.backward()
        opt.step()
    history.append(loss.detach())

plt.figure(figsize=(4, 3))
plt.plot(history, marker="o")  # expect: DEV011
plt.xlabel("epoch")
plt.ylabel("reconstruction MSE")
plt.savefig("loss_curve.png")
