"""Binary-plus-background semantic segmentation with inverse-frequency class weights computed from
the training masks.

Thread: https://github.com/pytorch/pytorch/issues/122757 (CrossEntropyLoss weights on the CPU while
model output and target are on cuda).
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class TinyUNet(nn.Module):
    def __init__(self, n_cls=3):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.up = nn.Sequential(nn.Upsample(scale_factor=2), nn.Conv2d(16, n_cls, 3, padding=1))

    def forward(self, x):
        return self.up(self.down(x))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    images = torch.rand(40, 3, 32, 32)
    masks = torch.randint(0, 3, (40, 32, 32))
    counts = torch.bincount(masks.flatten(), minlength=3).float()
    class_weights = counts.sum() / (3 * counts)
    criterion = nn.CrossEntropyLoss(weight=class_weights, ignore_index=255)  # expect: DEV012
    model = TinyUNet().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for img, mask in DataLoader(TensorDataset(images, masks), batch_size=8, shuffle=True):
        img, mask = img.to(device), mask.to(device)
        loss = criterion(model(img), mask)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
