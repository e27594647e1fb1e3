"""MNIST-style CNN with a --no-cuda switch; batches and labels moved where the loader yields them."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.lr_scheduler import StepLR
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, 1)
        self.dropout = nn.Dropout(0.25)
        self.fc1 = nn.Linear(8 * 13 * 13, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = self.dropout(torch.flatten(x, 1))
        return F.log_softmax(self.fc1(x), dim=1)


def train(model, device, loader, optimizer, epoch, dry_run=False):
    model.train()
    for batch_idx, (data, target) in enumerate(loader):
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        loss = F.nll_loss(model(data), target)
        loss.backward()
        optimizer.step()
        if batch_idx % 2 == 0:
            print(f"epoch {epoch} batch {batch_idx} loss {loss.item():.4f}")
        if dry_run:
            break


def evaluate(model, device, loader):
    model.eval()
    correct = 0
    with torch.no_grad():
        for data, target in loader:
            data, target = data.to(device), target.to(device)
            pred = model(data).argmax(dim=1)
            correct += (pred == target).sum().item()
    return correct / len(loader.dataset)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--no-cuda", action="store_true")
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    use_cuda = not args.no_cuda and torch.cuda.is_available()
    device = torch.device("cuda" if use_cuda else "cpu")
    kwargs = {"num_workers": 0, "pin_memory": True} if use_cuda else {}

    x = torch.randn(48, 1, 28, 28)
    y = torch.randint(0, 10, (48,))
    train_loader = DataLoader(TensorDataset(x, y), batch_size=16, shuffle=True, **kwargs)
    test_loader = DataLoader(TensorDataset(x[:16], y[:16]), batch_size=16, **kwargs)

    model = Net().to(device)
    optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0)
    scheduler = StepLR(optimizer, step_size=1, gamma=0.7)
    for epoch in range(1, args.epochs + 1):
        train(model, device, train_loader, optimizer, epoch, args.dry_run)
        print(f"accuracy {evaluate(model, device, test_loader):.3f}")
        scheduler.step()


if __name__ == "__main__":
    main()
