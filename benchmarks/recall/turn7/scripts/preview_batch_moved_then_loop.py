"""Image classifier: one batch is pulled first to print shapes and a sanity forward pass, then
the epoch loop runs over the same loader."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    data = TensorDataset(torch.rand(256, 1, 12, 12), torch.randint(0, 5, (256,)))
    loader = DataLoader(data, batch_size=32, shuffle=True)
    model = nn.Sequential(nn.Conv2d(1, 8, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 10 * 10, 5)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    images, labels = next(iter(loader))
    images, labels = images.to(device), labels.to(device)  # expect: DEV003
    print(images.shape, model(images).shape)
    for epoch in range(2):
        for images, labels in loader:
            loss = F.cross_entropy(model(images), labels)  # also: DEV002, DEV004
            opt.zero_grad()
            loss.backward()
            opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
