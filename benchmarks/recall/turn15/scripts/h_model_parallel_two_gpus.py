# Model parallel ResNet-ish classifier: first half on one GPU, second half on the other,
# as in the "Single-Machine Model Parallel" tutorial. Falls back to CPU for debugging.
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

dev0 = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
dev1 = torch.device("cuda:1" if torch.cuda.is_available() else "cpu")  # expect: DEV018


def conv_bn(c_in, c_out, stride=1):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True))


class TwoStageNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.seq1 = nn.Sequential(
            conv_bn(3, 32), conv_bn(32, 32), conv_bn(32, 64, 2), conv_bn(64, 64),
        ).to(dev0)
        self.seq2 = nn.Sequential(
            conv_bn(64, 128, 2), conv_bn(128, 128), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        ).to(dev1)
        self.fc = nn.Linear(128, num_classes).to(dev1)

    def forward(self, x):
        x = self.seq1(x.to(dev0))
        x = self.seq2(x.to(dev1))
        return self.fc(x)


class PipelinedTwoStageNet(TwoStageNet):
    """Splits each batch into micro-batches so both devices work at the same time."""

    def __init__(self, split_size=8, **kw):
        super().__init__(**kw)
        self.split_size = split_size

    def forward(self, x):
        splits = iter(x.split(self.split_size, dim=0))
        s_next = next(splits)
        s_prev = self.seq1(s_next.to(dev0)).to(dev1)
        ret = []
        for s_next in splits:
            ret.append(self.fc(self.seq2(s_prev)))
            s_prev = self.seq1(s_next.to(dev0)).to(dev1)
        ret.append(self.fc(self.seq2(s_prev)))
        return torch.cat(ret)


def train(model, loader, epochs=2, lr=0.05):
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    for epoch in range(epochs):
        t0 = time.time()
        model.train()
        for images, labels in loader:
            out = model(images)
            labels = labels.to(out.device)
            loss = F.cross_entropy(out, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"{type(model).__name__} epoch {epoch}: loss {loss.item():.3f} ({time.time() - t0:.2f}s)")


if __name__ == "__main__":
    torch.manual_seed(0)
    images = torch.randn(256, 3, 32, 32)
    labels = torch.randint(0, 10, (256,))
    images[:, 0] += labels.view(-1, 1, 1).float() / 5
    loader = DataLoader(TensorDataset(images, labels), batch_size=32, shuffle=True)
    train(TwoStageNet(), loader)
    train(PipelinedTwoStageNet(split_size=8), loader)
