"""Transfer learning: reuse a small ResNet-style backbone, swap the 1000-way head
for our 5 classes, train only the head, then dump validation probabilities.

Written like the usual "finetune resnet18 on my folder of images" script, with a
tiny in-file backbone and random data so it runs anywhere.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class BasicBlock(nn.Module):
    def __init__(self, cin, cout, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.short = nn.Sequential()
        if stride != 1 or cin != cout:
            self.short = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + self.short(x))


class TinyResNet(nn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 1, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU())
        self.layer1 = BasicBlock(16, 32, 2)
        self.layer2 = BasicBlock(32, 64, 2)
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(64, num_classes)

    def forward(self, x):
        x = self.layer2(self.layer1(self.stem(x)))
        return self.fc(torch.flatten(self.avgpool(x), 1))


def pretrained_tiny_resnet():
    model = TinyResNet(1000)
    # stand-in for torch.hub / torchvision weights
    state = {k: v.clone() for k, v in TinyResNet(1000).state_dict().items()}
    model.load_state_dict(state)
    return model


def main():
    torch.manual_seed(0)
    num_classes = 5
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    x = torch.randn(40, 3, 32, 32)
    y = torch.randint(0, num_classes, (40,))
    train_loader = DataLoader(TensorDataset(x[:32], y[:32]), batch_size=8, shuffle=True)
    val_loader = DataLoader(TensorDataset(x[32:], y[32:]), batch_size=8)

    model = pretrained_tiny_resnet()
    model.to(device)

    for p in model.parameters():
        p.requires_grad = False
    in_features = model.fc.in_features
    model.fc = nn.Linear(in_features, num_classes)  # expect: DEV015

    optimizer = torch.optim.SGD(model.fc.parameters(), lr=0.01, momentum=0.9)
    criterion = nn.CrossEntropyLoss()

    for epoch in range(2):
        model.train()
        running = 0.0
        for images, labels in train_loader:
            images, labels = images.to(device), labels.to(device)
            optimizer.zero_grad()
            loss = criterion(model(images), labels)
            loss.backward()
            optimizer.step()
            running += loss.item()
        print(f"epoch {epoch} loss {running / len(train_loader):.4f}")

    model.eval()
    all_probs = []
    with torch.no_grad():
        for images, _ in val_loader:
            probs = F.softmax(model(images.to(device)), dim=1)
            all_probs.append(probs.numpy())  # expect: DEV011
    probs = np.concatenate(all_probs)
    print("val probs", probs.shape, probs.argmax(1))


if __name__ == "__main__":
    main()
