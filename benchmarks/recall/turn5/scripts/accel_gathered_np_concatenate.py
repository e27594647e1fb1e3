"""Image classifier trained with accelerate; the evaluation gathers predictions across processes
and concatenates them with NumPy before computing balanced accuracy."""
import argparse

import numpy as np
import torch
import torch.nn as nn
from accelerate import Accelerator
from sklearn.metrics import balanced_accuracy_score
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


def make_model(num_classes=10):
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        nn.Flatten(), nn.Linear(64, num_classes),
    )


def evaluate(accelerator, model, loader):
    model.eval()
    all_preds, all_labels = [], []
    with torch.no_grad():
        for images, labels in loader:
            preds = model(images).argmax(dim=-1)
            preds, labels = accelerator.gather_for_metrics((preds, labels))
            all_preds.append(preds)
            all_labels.append(labels)
    y_pred = np.concatenate(all_preds)  # expect: DEV011
    y_true = np.concatenate(all_labels)  # expect: DEV011
    return balanced_accuracy_score(y_true, y_pred)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="./data")
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--lr", type=float, default=3e-3)
    args = parser.parse_args()

    accelerator = Accelerator()
    tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.5,) * 3, (0.5,) * 3)])
    train = datasets.CIFAR10(args.data, train=True, download=True, transform=tf)
    test = datasets.CIFAR10(args.data, train=False, download=True, transform=tf)
    train_loader = DataLoader(train, batch_size=128, shuffle=True, num_workers=2)
    test_loader = DataLoader(test, batch_size=256)

    model = make_model()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    model, optimizer, train_loader, test_loader = accelerator.prepare(model, optimizer, train_loader, test_loader)
    criterion = nn.CrossEntropyLoss()

    for epoch in range(args.epochs):
        model.train()
        for images, labels in train_loader:
            loss = criterion(model(images), labels)
            optimizer.zero_grad()
            accelerator.backward(loss)
            optimizer.step()
        score = evaluate(accelerator, model, test_loader)
        accelerator.print(f"epoch {epoch}: balanced accuracy {score:.3f}")


if __name__ == "__main__":
    main()
