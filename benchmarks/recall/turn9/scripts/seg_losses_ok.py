"""Look-alike of seg_weighted_ce_class_weights.py and seg_dice_eye_onehot.py: class weights moved
with the criterion, one-hot targets from F.one_hot of the moved mask, file names of the batch kept as
strings, and a CPU index list picking rows of a CUDA tensor.

Thread: https://github.com/sacdallago/biotrainer/issues/67 (class weights need to be sent to the
device when use_class_weights=True).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

N_CLS = 4


class MaskSet(Dataset):
    def __len__(self):
        return 24

    def __getitem__(self, i):
        return torch.rand(1, 32, 32), torch.randint(0, N_CLS, (32, 32)), f"tile_{i:03d}.png"


def dice_loss(logits, target, eps=1e-6):
    probs = logits.softmax(1)
    one_hot = F.one_hot(target, N_CLS).permute(0, 3, 1, 2).float()
    inter = (probs * one_hot).sum((2, 3))
    return 1 - ((2 * inter + eps) / (probs.sum((2, 3)) + one_hot.sum((2, 3)) + eps)).mean()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, N_CLS, 1)).to(device)
    weights = torch.tensor([0.1, 1.0, 2.0, 2.0])
    criterion = nn.CrossEntropyLoss(weight=weights).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    keep = torch.tensor([0, 2])
    for img, mask, names in DataLoader(MaskSet(), batch_size=8):
        img, mask = img.to(device), mask.to(device)
        logits = model(img)
        loss = criterion(logits, mask) + dice_loss(logits, mask)
        opt.zero_grad()
        loss.backward()
        opt.step()
        worst = logits[keep].argmax(1)
    print(loss.item(), names[0], worst.shape)


if __name__ == "__main__":
    main()
