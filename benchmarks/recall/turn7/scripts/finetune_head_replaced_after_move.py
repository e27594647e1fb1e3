"""Transfer learning: a backbone pretrained on one task is moved to the device, then its head is
replaced for the new label set."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(16, 10)

    def forward(self, x):
        return self.head(self.features(x))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Backbone()
    model.to(device)
    for p in model.features.parameters():
        p.requires_grad_(False)
    model.head = nn.Linear(16, 4)  # expect: DEV015
    opt = torch.optim.Adam(model.head.parameters(), lr=1e-3)
    for _ in range(10):
        x = torch.rand(8, 3, 16, 16, device=device)
        y = torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
