"""Port of an old PyTorch 0.3 training loop: the labels are cast to LongTensor after the move,
as the original code did after Variable(...).cuda()."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(400, 3, 8, 8)
    y = (x.mean((1, 2, 3)) > 0).float()
    loader = DataLoader(TensorDataset(x, y), batch_size=40, shuffle=True)
    model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 36, 2)).to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(2):
        for images, targets in loader:
            images = images.to(device)
            targets = targets.to(device).type(torch.LongTensor)  # expect: DEV021
            loss = criterion(model(images), targets)  # also: DEV004
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    print(loss.item())


if __name__ == "__main__":
    main()
