"""MNIST-style training loop in the old pytorch/examples manner: args.cuda decides whether the
batch is sent to the GPU with .cuda(non_blocking=True) right after the loader yields it.

Thread: https://github.com/lukemelas/EfficientNet-PyTorch/issues/52 (Tensor.to(device) / .cuda()
is not in-place: the moved copy was thrown away).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1, self.conv2 = nn.Conv2d(1, 10, 5), nn.Conv2d(10, 20, 5)
        self.fc1, self.fc2 = nn.Linear(320, 50), nn.Linear(50, 10)

    def forward(self, x):
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2(x), 2))
        return F.log_softmax(self.fc2(F.relu(self.fc1(x.flatten(1)))), dim=1)


def train(args, model, loader, optimizer, epoch):
    model.train()
    for batch_idx, (data, target) in enumerate(loader):
        if args.cuda:
            data = data.cuda(non_blocking=True)
            target.cuda(non_blocking=True)  # expect: DEV005
        optimizer.zero_grad()
        output = model(data)
        loss = F.nll_loss(output, target)  # also: DEV004
        loss.backward()
        optimizer.step()
        if batch_idx % args.log_interval == 0:
            print(f"epoch {epoch} [{batch_idx * len(data)}/{len(loader.dataset)}] loss {loss.item():.4f}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-cuda", action="store_true", default=False)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--log-interval", type=int, default=10)
    args = parser.parse_args()
    args.cuda = not args.no_cuda and torch.cuda.is_available()
    model = Net()
    if args.cuda:
        model.cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.5)
    data = TensorDataset(torch.rand(640, 1, 28, 28), torch.randint(0, 10, (640,)))
    loader = DataLoader(data, batch_size=64, shuffle=True, pin_memory=args.cuda)
    for epoch in range(1, args.epochs + 1):
        train(args, model, loader, optimizer, epoch)


if __name__ == "__main__":
    main()
