"""Multi-GPU training with nn.DataParallel; DataParallel scatters the inputs itself."""
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class ConvNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.classifier = nn.Linear(32, num_classes)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(f"Let's use {torch.cuda.device_count()} GPUs!")
model = nn.DataParallel(ConvNet()).to(device)

train_loader = DataLoader(TensorDataset(torch.randn(48, 3, 16, 16), torch.randint(0, 10, (48,))), batch_size=16, shuffle=True)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

for epoch in range(2):
    start = time.time()
    model.train()
    running_loss = 0.0
    for inputs, labels in train_loader:
        optimizer.zero_grad()
        outputs = model(inputs)
        loss = criterion(outputs, labels)  # expect: DEV004
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
    print(f"epoch {epoch} loss {running_loss / len(train_loader):.4f} ({time.time() - start:.2f}s)")
