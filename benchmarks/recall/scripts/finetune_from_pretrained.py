"""Transfer learning: load a backbone pretrained elsewhere, freeze it, train a new head."""
import argparse
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                      nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))

    def forward(self, x):
        return self.features(x).flatten(1)


class FineTuner(nn.Module):
    def __init__(self, backbone, num_classes):
        super().__init__()
        self.backbone = backbone
        self.head = nn.Linear(32, num_classes)

    def forward(self, x):
        return self.head(self.backbone(x))


parser = argparse.ArgumentParser()
parser.add_argument("--pretrained", default="backbone_imagenet_gpu.pth")
parser.add_argument("--num-classes", type=int, default=3)
args = parser.parse_args()
device = "cuda" if torch.cuda.is_available() else "cpu"

backbone = Backbone()
if os.path.isfile(args.pretrained):
    pretrained = torch.load(args.pretrained)  # expect: DEV008
    missing, unexpected = backbone.load_state_dict(pretrained, strict=False)
    print("missing:", missing, "unexpected:", unexpected)
for p in backbone.parameters():
    p.requires_grad = False

model = FineTuner(backbone, args.num_classes).to(device)
optimizer = torch.optim.SGD(model.head.parameters(), lr=0.01, momentum=0.9)
criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
loader = DataLoader(TensorDataset(torch.randn(24, 3, 16, 16), torch.randint(0, args.num_classes, (24,))), batch_size=8)

for epoch in range(2):
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        loss = criterion(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
