"""Segmentation with a soft Dice loss whose one-hot target is looked up from an identity matrix.

Thread: https://github.com/deepspeedai/DeepSpeedExamples/issues/743 (indices should be either on cpu
or on the same device as the indexed tensor (cpu)).
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

N_CLS = 4


def dice_loss(logits, target, eps=1e-6):
    probs = logits.softmax(1)
    one_hot = torch.eye(N_CLS)[target].permute(0, 3, 1, 2)  # expect: DEV006
    inter = (probs * one_hot).sum((2, 3))
    union = probs.sum((2, 3)) + one_hot.sum((2, 3))
    return 1 - ((2 * inter + eps) / (union + eps)).mean()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, N_CLS, 1)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    ds = TensorDataset(torch.rand(24, 1, 32, 32), torch.randint(0, N_CLS, (24, 32, 32)))
    for img, mask in DataLoader(ds, batch_size=8):
        img, mask = img.to(device), mask.to(device)
        logits = model(img)
        loss = nn.functional.cross_entropy(logits, mask) + dice_loss(logits, mask)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
