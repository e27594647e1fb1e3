import copy

import torch.nn as nn


class SensorNet(nn.Module):
    def __init__(self, in_channels, num_classes, width=32):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(in_channels, width, 7, padding=3), nn.BatchNorm1d(width), nn.ReLU(),
            nn.Conv1d(width, width, 5, padding=2), nn.BatchNorm1d(width), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1), nn.Flatten(),
        )
        self.classifier = nn.Linear(width, num_classes)

    def forward(self, x):
        return self.classifier(self.features(x))


def build_models(cfg):
    """Student is trained; teacher is an exponential moving average of it."""
    student = SensorNet(cfg.in_channels, cfg.num_classes, cfg.width)
    teacher = copy.deepcopy(student)  # expect: DEV016
    for p in teacher.parameters():
        p.requires_grad_(False)
    return student, teacher
