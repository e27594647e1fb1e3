"""Transfer learning: load a pretrained CNN, freeze the early blocks, swap the classifier for
the new label set, and fine-tune (the new head is moved to the device)."""
import argparse
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.block1 = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2))
        self.block2 = nn.Sequential(nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2))
        self.block3 = nn.Sequential(nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
                                    nn.AdaptiveAvgPool2d(1))
        self.classifier = nn.Linear(64, num_classes)

    def forward(self, x):
        x = self.block3(self.block2(self.block1(x)))
        return self.classifier(x.flatten(1))


def ensure_pretrained(path):
    if not os.path.exists(path):
        torch.save({"state_dict": ConvNet(10).state_dict(), "classes": 10}, path)


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--pretrained", default=os.path.join(tempfile.gettempdir(), "x_convnet_imagenet_toy.pt"))
    p.add_argument("--new-classes", type=int, default=5)
    p.add_argument("--steps", type=int, default=10)
    p.add_argument("--gpu", action="store_true", help="use the GPU when there is one")
    return p.parse_args()


def main():
    args = parse()
    device = torch.device("cuda" if args.gpu and torch.cuda.is_available() else "cpu")
    ensure_pretrained(args.pretrained)

    ckpt = torch.load(args.pretrained, map_location="cpu")
    model = ConvNet(num_classes=ckpt["classes"])
    model.load_state_dict(ckpt["state_dict"])
    model.to(device)

    for block in (model.block1, model.block2):
        for p in block.parameters():
            p.requires_grad = False
    model.classifier = nn.Linear(64, args.new_classes).to(device)

    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.SGD(params, lr=0.05, momentum=0.9)
    model.train()
    for step in range(args.steps):
        x = torch.randn(8, 3, 32, 32, device=device)
        y = torch.randint(0, args.new_classes, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("fine-tuned, last loss", round(loss.item(), 4))


if __name__ == "__main__":
    main()
