"""Weighted multi-class Dice loss for segmentation; the class weights live on the loss module."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class WeightedDiceLoss(nn.Module):
    def __init__(self, class_weights, eps=1e-6):
        super().__init__()
        self.class_weights = torch.as_tensor(class_weights, dtype=torch.float32)  # expect: DEV010
        self.eps = eps

    def forward(self, logits, target):
        probs = logits.softmax(1)
        onehot = F.one_hot(target, probs.size(1)).permute(0, 3, 1, 2).float()
        inter = (probs * onehot).sum((0, 2, 3))
        union = probs.sum((0, 2, 3)) + onehot.sum((0, 2, 3))
        dice = (2 * inter + self.eps) / (union + self.eps)
        return (self.class_weights * (1 - dice)).sum() / self.class_weights.sum()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 1)).to(device)
    criterion = WeightedDiceLoss([0.2, 1.0, 2.0]).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(5):
        img = torch.randn(4, 1, 32, 32, device=device)
        mask = torch.randint(0, 3, (4, 32, 32), device=device)
        loss = criterion(model(img), mask)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
