"""Small U-Net for 3-class masks with a weighted cross-entropy plus a foreground Dice term.

From segmentation threads: "Expected all tensors to be on the same device, but got weight is on
cpu, different from other tensors on cuda:0 (... wrapper_CUDA_nll_loss_forward)" when the class
weights of `CrossEntropyLoss` never leave the CPU (pytorch#122757, biotrainer "class weights need
to be sent to the device"), and the old `.type(torch.FloatTensor)` cast that quietly copies a
CUDA mask back to host memory before the Dice loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def conv_block(cin, cout):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
        nn.Conv2d(cout, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
    )


class UNet(nn.Module):
    def __init__(self, in_ch=1, n_classes=3, base=8):
        super().__init__()
        self.enc1 = conv_block(in_ch, base)
        self.enc2 = conv_block(base, base * 2)
        self.bottleneck = conv_block(base * 2, base * 4)
        self.up2 = nn.ConvTranspose2d(base * 4, base * 2, 2, stride=2)
        self.dec2 = conv_block(base * 4, base * 2)
        self.up1 = nn.ConvTranspose2d(base * 2, base, 2, stride=2)
        self.dec1 = conv_block(base * 2, base)
        self.head = nn.Conv2d(base, n_classes, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(F.max_pool2d(e1, 2))
        b = self.bottleneck(F.max_pool2d(e2, 2))
        d2 = self.dec2(torch.cat([self.up2(b), e2], 1))
        d1 = self.dec1(torch.cat([self.up1(d2), e1], 1))
        return self.head(d1)


def dice_loss(prob, target, eps=1e-6):
    inter = (prob * target).sum(dim=(1, 2))
    union = prob.sum(dim=(1, 2)) + target.sum(dim=(1, 2))
    return 1 - ((2 * inter + eps) / (union + eps)).mean()


def synthetic_masks(n=32, size=32, seed=0):
    g = torch.Generator().manual_seed(seed)
    images = torch.rand(n, 1, size, size, generator=g) * 0.3
    masks = torch.zeros(n, size, size, dtype=torch.long)
    for i in range(n):
        r = int(torch.randint(4, 10, (1,), generator=g))
        c = int(torch.randint(r, size - r, (1,), generator=g))
        masks[i, c - r:c + r, c - r:c + r] = 1
        masks[i, c - 2:c + 2, c - 2:c + 2] = 2
        images[i, 0][masks[i] > 0] += 0.5
    return images, masks


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    images, masks = synthetic_masks()
    loader = DataLoader(TensorDataset(images, masks), batch_size=8, shuffle=True)
    model = UNet().to(device)
    criterion = nn.CrossEntropyLoss(weight=torch.tensor([0.2, 1.0, 3.0]))  # expect: DEV012
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

    for epoch in range(2):
        model.train()
        total = 0.0
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            logits = model(x)
            ce = criterion(logits, y)
            fg = (y > 0).type(torch.FloatTensor)  # expect: DEV021
            probs = logits.softmax(dim=1)
            loss = ce + dice_loss(1 - probs[:, 0], fg)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch}: {total / len(loader):.4f}")


if __name__ == "__main__":
    main()
