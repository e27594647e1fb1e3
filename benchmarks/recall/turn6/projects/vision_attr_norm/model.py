"""Defect classifier with input normalisation folded into the network."""
import torch
import torch.nn as nn


class Normalize(nn.Module):
    def __init__(self, mean, std):
        super().__init__()
        self.mean = torch.tensor(mean).view(1, -1, 1, 1)  # expect: DEV010
        self.std = torch.tensor(std).view(1, -1, 1, 1)  # also: DEV010

    def forward(self, x):
        return (x - self.mean) / self.std


class DefectNet(nn.Module):
    def __init__(self, mean, std, n_classes):
        super().__init__()
        self.norm = Normalize(mean, std)
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
                                      nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.classifier = nn.Linear(32, n_classes)

    def forward(self, x):
        return self.classifier(self.features(self.norm(x)))
