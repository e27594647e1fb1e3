"""Look-alike of seg_weighted_ce_pixel_freq.py: the median-frequency class weights are moved to
the device before the weighted loss is built, the Dice term one-hot encodes device labels, and the
confusion matrix is accumulated on the device and copied to the host for NumPy.

Thread: https://github.com/open-mmlab/mmsegmentation/issues/3568 (Setting class_weight causes a
CUDA error in the loss).
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

N_CLASSES, VOID = 4, 255


def median_frequency_weights(masks):
    counts = np.bincount(masks[masks != VOID].ravel(), minlength=N_CLASSES).astype(np.float64)
    freq = counts / counts.sum()
    return np.median(freq) / np.maximum(freq, 1e-8)


def dice_loss(logits, target):
    valid = (target != VOID).unsqueeze(1)
    onehot = F.one_hot(target.clamp(max=N_CLASSES - 1), N_CLASSES).permute(0, 3, 1, 2)
    probs = logits.softmax(1) * valid
    onehot = onehot * valid
    inter = (probs * onehot).sum((0, 2, 3))
    return 1 - (2 * inter / (probs.sum((0, 2, 3)) + onehot.sum((0, 2, 3)) + 1e-6)).mean()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    masks = np.random.choice([0, 1, 2, 3, VOID], size=(64, 32, 32), p=[0.6, 0.25, 0.08, 0.04, 0.03])
    images = np.random.rand(64, 3, 32, 32).astype(np.float32)
    weights = torch.tensor(median_frequency_weights(masks), dtype=torch.float32).to(device)
    model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
                          nn.Conv2d(16, N_CLASSES, 1)).to(device)
    criterion = nn.CrossEntropyLoss(weight=weights, ignore_index=VOID)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = DataLoader(TensorDataset(torch.from_numpy(images), torch.from_numpy(masks).long()),
                        batch_size=8, shuffle=True)
    confusion = torch.zeros(N_CLASSES, N_CLASSES, dtype=torch.long, device=device)
    for img, mask in loader:
        img, mask = img.to(device), mask.to(device)
        logits = model(img)
        loss = criterion(logits, mask) + 0.5 * dice_loss(logits, mask)
        opt.zero_grad()
        loss.backward()
        opt.step()
        valid = mask != VOID
        pairs = mask[valid] * N_CLASSES + logits.argmax(1)[valid]
        confusion += torch.bincount(pairs, minlength=N_CLASSES ** 2).view(N_CLASSES, N_CLASSES)
    cm = confusion.cpu().numpy()
    iou = np.diag(cm) / np.maximum(cm.sum(0) + cm.sum(1) - np.diag(cm), 1)
    print("loss", round(loss.item(), 3), "mIoU", iou.mean().round(3))


if __name__ == "__main__":
    main()
