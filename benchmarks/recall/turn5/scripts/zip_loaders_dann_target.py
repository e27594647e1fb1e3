"""Unsupervised domain adaptation with two loaders zipped: labelled source images and unlabelled
target images, features aligned with a domain discriminator."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


class Extractor(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 32, 5), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(32, 48, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten())

    def forward(self, x):
        return self.conv(x)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="./data")
    parser.add_argument("--epochs", type=int, default=5)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tf = transforms.Compose([transforms.Resize(28), transforms.Grayscale(), transforms.ToTensor()])
    source = datasets.MNIST(args.data, train=True, download=True, transform=tf)
    target = datasets.USPS(args.data, train=True, download=True, transform=tf)
    src_loader = DataLoader(source, batch_size=64, shuffle=True, drop_last=True)
    tgt_loader = DataLoader(target, batch_size=64, shuffle=True, drop_last=True)

    feat = Extractor().to(device)
    clf = nn.Linear(48 * 4 * 4, 10).to(device)
    disc = nn.Sequential(nn.Linear(48 * 4 * 4, 100), nn.ReLU(), nn.Linear(100, 1)).to(device)
    opt = torch.optim.Adam([*feat.parameters(), *clf.parameters()], lr=1e-3)
    opt_d = torch.optim.Adam(disc.parameters(), lr=1e-3)

    for epoch in range(args.epochs):
        for (xs, ys), (xt, _) in zip(src_loader, tgt_loader):
            xs, ys = xs.to(device), ys.to(device)
            fs = feat(xs)
            ft = feat(xt)  # expect: DEV002
            dom_s = torch.ones(xs.size(0), 1)  # expect: DEV006
            dom_t = torch.zeros(xs.size(0), 1)  # expect: DEV006
            d_loss = F.binary_cross_entropy_with_logits(disc(fs.detach()), dom_s) + \
                F.binary_cross_entropy_with_logits(disc(ft.detach()), dom_t)
            opt_d.zero_grad()
            d_loss.backward()
            opt_d.step()
            g_loss = F.cross_entropy(clf(fs), ys) + F.binary_cross_entropy_with_logits(disc(ft), dom_s)
            opt.zero_grad()
            g_loss.backward()
            opt.step()
        print(epoch, d_loss.item(), g_loss.item())


if __name__ == "__main__":
    main()
