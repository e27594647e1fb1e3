"""Transfer learning done right: the head replaced before the move, and a second head added later followed by
another model.to(device)."""
import torch
import torch.nn as nn
from torchvision import models


def build(num_classes, device):
    model = models.efficientnet_b0(weights=None)
    model.classifier[1] = nn.Linear(model.classifier[1].in_features, num_classes)
    return model.to(device)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = build(5, device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x = torch.randn(4, 3, 64, 64, device=device)
    y = torch.randint(0, 5, (4,), device=device)
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    # Stage 2: a multi-label head next to the first one.
    model.aux_head = nn.Linear(1280, 12)
    model.to(device)
    feats = model.avgpool(model.features(x)).flatten(1)
    print(model.aux_head(feats).shape, loss.item())


if __name__ == "__main__":
    main()
