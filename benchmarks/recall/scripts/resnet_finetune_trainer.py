"""Fine-tune a small residual classifier with a Trainer class (fit / train_epoch / evaluate)."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class BasicBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x):
        out = torch.relu(self.bn1(self.conv1(x)))
        return torch.relu(x + self.bn2(self.conv2(out)))


class TinyResNet(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU())
        self.layer1 = BasicBlock(16)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        return self.fc(torch.flatten(self.pool(self.layer1(self.stem(x))), 1))


class Trainer:
    def __init__(self, model, train_loader, val_loader, lr=1e-3):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = model.to(self.device)
        self.train_loader = train_loader
        self.val_loader = val_loader
        self.criterion = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=lr)

    def train_epoch(self):
        self.model.train()
        total = 0.0
        for images, labels in self.train_loader:
            images, labels = images.to(self.device), labels.to(self.device)
            self.optimizer.zero_grad()
            loss = self.criterion(self.model(images), labels)
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        return total / len(self.train_loader)

    @torch.no_grad()
    def evaluate(self):
        self.model.eval()
        all_preds, all_labels = [], []
        for images, labels in self.val_loader:
            logits = self.model(images)  # expect: DEV002
            all_preds.append(logits.argmax(dim=1).numpy())  # expect: DEV011
            all_labels.append(labels.numpy())
        preds, targets = np.concatenate(all_preds), np.concatenate(all_labels)
        return float((preds == targets).mean())

    def fit(self, epochs):
        for epoch in range(epochs):
            train_loss = self.train_epoch()
            val_acc = self.evaluate()
            print(f"epoch {epoch}: train_loss={train_loss:.4f} val_acc={val_acc:.3f}")


if __name__ == "__main__":
    x = torch.randn(32, 3, 16, 16)
    y = torch.randint(0, 5, (32,))
    train_dl = DataLoader(TensorDataset(x, y), batch_size=8, shuffle=True)
    val_dl = DataLoader(TensorDataset(x[:16], y[:16]), batch_size=8)
    Trainer(TinyResNet(), train_dl, val_dl).fit(epochs=1)
