"""Label and mask casts that keep the device: .type(torch.long), .long(), type_as; the legacy
.type(torch.FloatTensor) only runs in the dataset, on CPU tensors, before the batch is moved."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class CsvRows(Dataset):
    def __init__(self, n=200):
        self.x = np.random.rand(n, 12)
        self.y = (self.x[:, 0] > 0.5).astype(np.float64)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return torch.from_numpy(self.x[i]).type(torch.FloatTensor), torch.tensor(self.y[i])


model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 2)).to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
for x, y in DataLoader(CsvRows(), batch_size=40, shuffle=True):
    x, y = x.to(device), y.to(device)
    y = y.type(torch.long)
    logits = model(x)
    confident = (logits.softmax(-1).max(-1).values > 0.6).type_as(logits)
    loss = (nn.functional.cross_entropy(logits, y, reduction="none") * confident).mean() + criterion(logits, y.long())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(loss.item())
