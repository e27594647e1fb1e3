"""A resumed run: the optimizer's state is restored while the model is on the CPU and the model
moves afterwards (DEV017). Adam's moments stay on the CPU; the first step() fails."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

# What an earlier run left behind (written here so the script runs on its own).
previous = nn.Linear(8, 2)
previous_optimizer = torch.optim.Adam(previous.parameters(), lr=0.01)
previous(torch.randn(4, 8)).sum().backward()
previous_optimizer.step()
torch.save({"model": previous.state_dict(), "optimizer": previous_optimizer.state_dict()},
           "last.pt")

model = nn.Linear(8, 2)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
ckpt = torch.load("last.pt", map_location="cpu")
model.load_state_dict(ckpt["model"])
optimizer.load_state_dict(ckpt["optimizer"])
model.to(device)
for step in range(10):
    x = torch.randn(8, 8, device=device)
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
