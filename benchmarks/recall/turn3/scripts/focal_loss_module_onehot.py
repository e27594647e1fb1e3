"""Segmentation with a hand-written multi-class focal loss module."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FocalLoss(nn.Module):
    def __init__(self, num_classes, gamma=2.0, eps=1e-6):
        super().__init__()
        self.num_classes = num_classes
        self.gamma = gamma
        self.eps = eps

    def forward(self, logits, target):
        probs = logits.softmax(dim=1).clamp(self.eps, 1 - self.eps)
        b, c, h, w = logits.shape
        one_hot = torch.zeros(b, c, h, w).scatter_(1, target.unsqueeze(1), 1.0)  # expect: DEV006
        pt = (probs * one_hot).sum(1)
        return (-(1 - pt) ** self.gamma * pt.log()).mean()


class TinySegNet(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.cls = nn.Conv2d(16, n_classes, 1)

    def forward(self, x):
        return self.cls(self.body(x))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = TinySegNet().to(device)
    criterion = FocalLoss(num_classes=4)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(10):
        images = torch.randn(4, 3, 32, 32).to(device)
        masks = torch.randint(0, 4, (4, 32, 32)).to(device)
        loss = criterion(model(images), masks)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(F.softmax(model(images), 1).mean().item(), loss.item())


if __name__ == "__main__":
    main()
