"""Fine-tuning: the backbone moved, then a new head attached (DEV015). The head's weights stay
on the CPU and the first forward on a GPU fails at the head."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))
model.to(device)
model[2] = nn.Linear(16, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    x = torch.randn(8, 8, device=device)
    y = torch.randint(0, 2, (8,), device=device)
    loss = nn.functional.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
