"""(Correct) Fine-tune a model-zoo backbone on a new label set: load pretrained weights, swap the head, train the head."""
import argparse
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyResNet(nn.Module):
    def __init__(self, num_classes=1000, width=16):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU())
        self.block = nn.Sequential(nn.Conv2d(width, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(width, num_classes)

    def forward(self, x):
        h = self.stem(x)
        h = h + self.block(h)
        return self.fc(self.pool(h).flatten(1))


ZOO = {"tiny_resnet": TinyResNet}


def load_pretrained(name, weights_path, device):
    model = ZOO[name]()
    state = torch.load(weights_path, map_location="cpu")
    model.load_state_dict(state)
    return model.to(device).eval()


def fake_pretrained_file():
    path = os.path.join(tempfile.gettempdir(), "w_zoo_tiny_resnet.pt")
    if not os.path.exists(path):
        torch.save(TinyResNet().state_dict(), path)
    return path


def loader(n, bs=8, classes=5):
    return [(torch.randn(bs, 3, 16, 16), torch.randint(0, classes, (bs,))) for _ in range(n)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arch", default="tiny_resnet")
    ap.add_argument("--num-classes", type=int, default=5)
    ap.add_argument("--epochs", type=int, default=2)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    model = load_pretrained(args.arch, fake_pretrained_file(), device)
    in_features = model.fc.in_features
    for p in model.parameters():
        p.requires_grad = False
    # new label set: replace the classifier, only it is trained
    model.fc = nn.Linear(in_features, args.num_classes).to(device)
    optimizer = torch.optim.Adam(model.fc.parameters(), lr=1e-3)

    for epoch in range(args.epochs):
        model.train()
        for x, y in loader(4):
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        model.eval()
        correct, seen = 0, 0
        with torch.no_grad():
            for x, y in loader(2):
                x, y = x.to(device), y.to(device)
                probs = F.softmax(model(x), dim=1).float()
                top_p, top_i = probs.max(1)
                correct += (top_i == y).sum().item()
                seen += y.numel()
        print(f"epoch {epoch} loss {loss.item():.3f} acc {correct / seen:.3f}")


if __name__ == "__main__":
    main()
