"""Small convolutional keyword spotter with additive-noise augmentation in training mode.

Thread: https://github.com/tsugumi-sys/SA-ConvLSTM-Pytorch/pull/26 (cpu and cuda:0: a tensor made in
forward without a device).
"""
import torch
import torch.nn as nn


class KwsNet(nn.Module):
    def __init__(self, n_mels, hidden, n_words):
        super().__init__()
        self.conv = nn.Conv1d(n_mels, hidden, 5, padding=2)
        self.head = nn.Linear(hidden, n_words)

    def forward(self, feats):
        if self.training:
            feats = feats + 0.05 * torch.randn(feats.shape)  # expect: DEV006
        h = torch.relu(self.conv(feats)).mean(-1)
        return self.head(h)
