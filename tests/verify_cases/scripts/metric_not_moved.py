"""A torchmetrics metric created and never moved, updated with device outputs (DEV019)."""
import torch
import torch.nn as nn
import torchmetrics

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(8, 3).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
accuracy = torchmetrics.Accuracy(task="multiclass", num_classes=3)
for step in range(10):
    x = torch.randn(8, 8).to(device)
    y = torch.randint(0, 3, (8,)).to(device)
    logits = model(x)
    loss = nn.functional.cross_entropy(logits, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    accuracy.update(logits.argmax(dim=1), y)
print("accuracy", accuracy.compute().item())
