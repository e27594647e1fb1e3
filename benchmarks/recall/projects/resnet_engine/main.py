import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from engine import evaluate, train_one_epoch
from models import ResNetSmall


def get_args():
    parser = argparse.ArgumentParser(description="train a small ResNet")
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--lr", type=float, default=0.05)
    return parser.parse_args()


def make_loaders(batch_size):
    x = torch.rand(96, 3, 32, 32)
    y = torch.randint(0, 10, (96,))
    train = TensorDataset(x[:64], y[:64])
    val = TensorDataset(x[64:], y[64:])
    return (DataLoader(train, batch_size=batch_size, shuffle=True),
            DataLoader(val, batch_size=batch_size))


def main():
    args = get_args()
    device = torch.device(args.device)
    train_loader, val_loader = make_loaders(args.batch_size)
    model = ResNetSmall(num_classes=10).to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    for epoch in range(args.epochs):
        train_one_epoch(model, train_loader, criterion, optimizer, device, epoch)
        evaluate(model, val_loader, device)


if __name__ == "__main__":
    main()
