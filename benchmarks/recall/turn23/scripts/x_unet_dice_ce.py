"""Tiny 2D U-Net for organ segmentation (3 classes: background, liver, lesion)
trained with a weighted soft-Dice + CE loss and a deep-supervision head."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

CLASS_FREQ = [0.90, 0.08, 0.02]


class DiceCELoss(nn.Module):
    """Soft Dice on softmax probabilities plus cross-entropy, both class-weighted."""

    def __init__(self, class_weights, smooth=1e-5, ce_weight=1.0):
        super().__init__()
        self.class_weights = torch.tensor(class_weights, dtype=torch.float32)  # expect: DEV010
        self.smooth = smooth
        self.ce_weight = ce_weight

    def forward(self, logits, target):
        n_classes = logits.shape[1]
        probs = logits.softmax(dim=1)
        one_hot = F.one_hot(target, n_classes).permute(0, 3, 1, 2).float()
        dims = (0, 2, 3)
        inter = (probs * one_hot).sum(dims)
        union = probs.sum(dims) + one_hot.sum(dims)
        dice = (2 * inter + self.smooth) / (union + self.smooth)
        w = self.class_weights / self.class_weights.sum()
        dice_loss = 1 - (w * dice).sum()
        ce = F.cross_entropy(logits, target, weight=self.class_weights)
        return dice_loss + self.ce_weight * ce


def block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class SmallUNet(nn.Module):
    def __init__(self, n_classes=3, c=16):
        super().__init__()
        self.enc1, self.enc2 = block(1, c), block(c, 2 * c)
        self.mid = block(2 * c, 2 * c)
        self.dec1 = block(3 * c, c)
        self.out = nn.Conv2d(c, n_classes, 1)
        self.aux = nn.Conv2d(2 * c, n_classes, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(F.max_pool2d(e1, 2))
        m = self.mid(e2)
        d1 = self.dec1(torch.cat([F.interpolate(m, scale_factor=2), e1], dim=1))
        return self.out(d1), self.aux(m)


def inverse_frequency(freqs):
    inv = [1.0 / f for f in freqs]
    s = sum(inv)
    return [len(freqs) * v / s for v in inv]


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    images = torch.randn(16, 1, 32, 32)
    masks = torch.randint(0, 3, (16, 32, 32))
    loader = DataLoader(TensorDataset(images, masks), batch_size=4, shuffle=True)

    model = SmallUNet().to(device)
    weights = inverse_frequency(CLASS_FREQ)
    criterion = DiceCELoss(weights).to(device)
    aux_criterion = nn.CrossEntropyLoss(weight=torch.tensor(weights))  # expect: DEV012
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

    for epoch in range(2):
        model.train()
        for img, mask in loader:
            img, mask = img.to(device), mask.to(device)
            logits, aux_logits = model(img)
            aux_target = F.interpolate(mask[:, None].float(), size=aux_logits.shape[-2:], mode="nearest")
            loss = criterion(logits, mask) + 0.4 * aux_criterion(aux_logits, aux_target[:, 0].long())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
