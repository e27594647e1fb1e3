"""Training script that can resume from a checkpoint written by an earlier (usually GPU) run."""
import argparse
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def make_model():
    return nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2))


def save_checkpoint(state, directory, epoch):
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"epoch_{epoch:03d}.pth")
    torch.save(state, path)
    return path


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--resume", default="", help="path to a checkpoint to resume from")
    parser.add_argument("--out-dir", default="/tmp/recall_ckpts")
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = make_model().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    start_epoch, best_loss = 0, float("inf")

    if args.resume and os.path.isfile(args.resume):
        print(f"=> loading checkpoint '{args.resume}'")
        checkpoint = torch.load(args.resume)  # expect: DEV008
        start_epoch = checkpoint["epoch"] + 1
        best_loss = checkpoint["best_loss"]
        model.load_state_dict(checkpoint["state_dict"])
        optimizer.load_state_dict(checkpoint["optimizer"])

    loader = DataLoader(TensorDataset(torch.randn(40, 10), torch.randint(0, 2, (40,))), batch_size=8, shuffle=True)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(start_epoch, start_epoch + args.epochs):
        epoch_loss = 0.0
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
        epoch_loss /= len(loader)
        best_loss = min(best_loss, epoch_loss)
        state = {"epoch": epoch, "state_dict": model.state_dict(), "optimizer": optimizer.state_dict(), "best_loss": best_loss}
        print(f"epoch {epoch} loss {epoch_loss:.4f} saved {save_checkpoint(state, args.out_dir, epoch)}")


if __name__ == "__main__":
    main()
