import argparse

import torch

from data import build_loaders
from engine import evaluate, train_one_epoch
from models import TinyDetector

NUM_CLASSES = 3


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--no-cuda", action="store_true")
    args = parser.parse_args()
    use_cuda = torch.cuda.is_available() and not args.no_cuda
    device = torch.device("cuda" if use_cuda else "cpu")

    torch.manual_seed(0)
    train_loader, val_loader = build_loaders(NUM_CLASSES)
    model = TinyDetector(NUM_CLASSES).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        train_one_epoch(model, optimizer, train_loader, device, epoch)
        print(f"epoch {epoch}: mAP@0.5 {evaluate(model, val_loader, device, NUM_CLASSES):.4f}")


if __name__ == "__main__":
    main()
