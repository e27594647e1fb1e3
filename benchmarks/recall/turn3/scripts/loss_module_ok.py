"""Loss modules with their own forward, done right: buffers for constants, the criterion moved with the model,
one-hot built from the device target."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LabelSmoothingDice(nn.Module):
    def __init__(self, class_weights, smoothing=0.1):
        super().__init__()
        self.register_buffer("class_weights", torch.as_tensor(class_weights, dtype=torch.float32))
        self.smoothing = smoothing

    def forward(self, logits, target):
        n = logits.size(1)
        one_hot = F.one_hot(target, n).permute(0, 3, 1, 2).float()
        soft = one_hot * (1 - self.smoothing) + self.smoothing / n
        probs = logits.softmax(1)
        inter = (probs * soft).sum((0, 2, 3))
        union = probs.sum((0, 2, 3)) + soft.sum((0, 2, 3))
        dice = 1 - (2 * inter + 1) / (union + 1)
        return (dice * self.class_weights).sum() / self.class_weights.sum()


class CenterLoss(nn.Module):
    def __init__(self, num_classes, feat_dim):
        super().__init__()
        self.centers = nn.Parameter(torch.randn(num_classes, feat_dim))

    def forward(self, feats, labels):
        return (feats - self.centers.index_select(0, labels)).pow(2).sum(1).mean()


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    seg = nn.Conv2d(3, 4, 3, padding=1).to(device)
    dice = LabelSmoothingDice([1.0, 2.0, 2.0, 4.0]).to(device)
    center = CenterLoss(4, 8).to(device)
    opt = torch.optim.Adam(list(seg.parameters()) + list(center.parameters()), lr=1e-3)
    images = torch.randn(2, 3, 16, 16).to(device)
    masks = torch.randint(0, 4, (2, 16, 16)).to(device)
    logits = seg(images)
    feats = logits.mean((2, 3)).repeat(1, 2)
    loss = dice(logits, masks) + 0.1 * center(feats, masks[:, 0, 0])
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(loss.item())
