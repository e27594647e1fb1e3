"""Transfer learning with a frozen backbone: the head is swapped after the model was
moved, so the new head is moved on the spot; validation probabilities go through the
CPU before NumPy."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class ConvBackbone(nn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(32, num_classes)

    def forward(self, x):
        return self.fc(torch.flatten(self.features(x), 1))


def main():
    torch.manual_seed(0)
    num_classes = 4
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    data = TensorDataset(torch.randn(48, 3, 32, 32), torch.randint(0, num_classes, (48,)))
    train_ds, val_ds = torch.utils.data.random_split(data, [40, 8])
    train_loader = DataLoader(train_ds, batch_size=8, shuffle=True)
    val_loader = DataLoader(val_ds, batch_size=8)

    model = ConvBackbone(1000).to(device)
    for p in model.features.parameters():
        p.requires_grad = False
    # the backbone is already on the device: the new head goes there too
    model.fc = nn.Linear(model.fc.in_features, num_classes).to(device)

    optimizer = torch.optim.AdamW(model.fc.parameters(), lr=1e-3)
    criterion = nn.CrossEntropyLoss(label_smoothing=0.1)

    for epoch in range(2):
        model.train()
        for images, labels in train_loader:
            images = images.to(device, non_blocking=True)
            labels = labels.to(device, non_blocking=True)
            optimizer.zero_grad(set_to_none=True)
            loss = criterion(model(images), labels)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")

    model.eval()
    chunks = []
    with torch.no_grad():
        for images, _ in val_loader:
            probs = F.softmax(model(images.to(device)), dim=1)
            chunks.append(probs.cpu().numpy())
    probs = np.concatenate(chunks)
    print("val probs", probs.shape)


if __name__ == "__main__":
    main()
