"""Keyword spotting with label smoothing done by hand: a (classes x classes) table of smoothed
target distributions is built once, and each batch looks its rows up by label.

Thread: https://github.com/aassxun/SEMICON/issues/2 (RuntimeError: indices should be either on cpu
or on the same device as the indexed tensor (cpu)).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def smoothing_table(num_classes, eps):
    table = torch.full((num_classes, num_classes), eps / (num_classes - 1))  # expect: DEV006
    table.fill_diagonal_(1.0 - eps)
    return table


def soft_cross_entropy(logits, target, table):
    soft = table[target]
    return -(soft * F.log_softmax(logits, dim=-1)).sum(-1).mean()


class KWS(nn.Module):
    def __init__(self, n_mels=40, classes=12):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(n_mels, 64, 5, padding=2), nn.ReLU(),
                                  nn.Conv1d(64, 64, 5, padding=2), nn.ReLU())
        self.fc = nn.Linear(64, classes)

    def forward(self, mels):
        return self.fc(self.conv(mels).mean(-1))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = KWS().to(device)
    table = smoothing_table(12, eps=0.1)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    data = TensorDataset(torch.randn(768, 40, 50), torch.randint(0, 12, (768,)))
    for epoch in range(3):
        for mels, labels in DataLoader(data, batch_size=64, shuffle=True):
            mels, labels = mels.to(device), labels.to(device)
            loss = soft_cross_entropy(model(mels), labels, table)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
