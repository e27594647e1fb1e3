"""Dict batches again, but only the inputs are moved: the labels stay on the CPU."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

device = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)
samples = [{"features": torch.randn(6), "label": torch.tensor(i % 3)} for i in range(480)]
loader = DataLoader(samples, batch_size=24, shuffle=True)
model = nn.Sequential(nn.Linear(6, 24), nn.ReLU(), nn.Linear(24, 3)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(4):
    for batch in loader:
        logits = model(batch["features"].to(device))
        loss = nn.functional.cross_entropy(logits, batch["label"])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
