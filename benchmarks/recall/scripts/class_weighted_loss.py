"""Imbalanced image classification: inverse-frequency class weights computed from the training labels."""
from collections import Counter

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

NUM_CLASSES = 4
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

labels = torch.cat([torch.zeros(30), torch.ones(6), torch.full((3,), 2.0), torch.full((1,), 3.0)]).long()
images = torch.randn(len(labels), 3, 12, 12)
train_loader = DataLoader(TensorDataset(images, labels), batch_size=8, shuffle=True)

counts = Counter(labels.tolist())
class_weights = torch.tensor([len(labels) / (NUM_CLASSES * counts[c]) for c in range(NUM_CLASSES)], dtype=torch.float32)
print("class weights:", class_weights)

model = nn.Sequential(
    nn.Conv2d(3, 8, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 10 * 10, NUM_CLASSES)
).to(device)
criterion = nn.CrossEntropyLoss(weight=class_weights)  # expect: DEV012
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

for epoch in range(2):
    model.train()
    correct = 0
    for inputs, targets in train_loader:
        inputs, targets = inputs.to(device), targets.to(device)
        optimizer.zero_grad()
        outputs = model(inputs)
        loss = criterion(outputs, targets)
        loss.backward()
        optimizer.step()
        correct += (outputs.argmax(1) == targets).sum().item()
    print(f"epoch {epoch} loss {loss.item():.4f} train acc {correct / len(labels):.3f}")
