"""CIFAR-style CNN with tqdm progress bars for training and validation."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from tqdm import tqdm


class SimpleCNN(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.classifier = nn.Sequential(nn.Flatten(), nn.Dropout(0.3), nn.Linear(32 * 4 * 4, num_classes))

    def forward(self, x):
        return self.classifier(self.features(x))


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
train_loader = DataLoader(TensorDataset(torch.randn(32, 3, 16, 16), torch.randint(0, 10, (32,))), batch_size=8, shuffle=True)
val_loader = DataLoader(TensorDataset(torch.randn(16, 3, 16, 16), torch.randint(0, 10, (16,))), batch_size=8)
model = SimpleCNN().to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=5e-4)

for epoch in range(2):
    model.train()
    pbar = tqdm(train_loader, desc=f"train {epoch}", leave=False)
    for images, labels in pbar:
        images, labels = images.to(device), labels.to(device)
        optimizer.zero_grad()
        loss = criterion(model(images), labels)
        loss.backward()
        optimizer.step()
        pbar.set_postfix(loss=f"{loss.item():.3f}")

    model.eval()
    val_loss, correct = 0.0, 0
    with torch.no_grad():
        for batch in tqdm(val_loader, desc="val", leave=False):
            images, labels = batch
            outputs = model(images)  # expect: DEV002
            val_loss += criterion(outputs, labels).item()  # expect: DEV004
            correct += (outputs.argmax(1).cpu() == labels).sum().item()
    print(f"epoch {epoch}: val loss {val_loss / len(val_loader):.4f} acc {correct / len(val_loader.dataset):.3f}")
