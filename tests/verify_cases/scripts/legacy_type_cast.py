"""A mask cast with the legacy `.type(torch.FloatTensor)` (DEV021): a CPU copy of a device
tensor, which then meets the device scores."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(8, 8).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    x = torch.randn(8, 8).to(device)
    scores = model(x)
    mask = (x > 0).type(torch.FloatTensor)
    loss = (scores * mask).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
