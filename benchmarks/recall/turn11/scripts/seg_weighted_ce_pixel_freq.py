"""Semantic segmentation of synthetic road scenes with a tiny encoder-decoder; class weights come
from median-frequency balancing over the training masks, and void pixels (255) are ignored.

Thread: https://github.com/sacdallago/biotrainer/issues/67 (class weights need to be sent to the
device when use_class_weights=True; Expected all tensors to be on the same device).
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

N_CLASSES, VOID = 4, 255


def median_frequency_weights(masks, n_classes):
    valid = masks[masks != VOID].ravel()
    counts = np.bincount(valid, minlength=n_classes).astype(np.float64)
    freq = counts / counts.sum()
    return np.median(freq) / np.maximum(freq, 1e-8)


class TinySeg(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
                                 nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU())
        self.dec = nn.Sequential(nn.ConvTranspose2d(32, 16, 2, stride=2), nn.ReLU(),
                                 nn.ConvTranspose2d(16, n_classes, 2, stride=2))

    def forward(self, x):
        return self.dec(self.enc(x))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    masks = np.random.choice([0, 1, 2, 3, VOID], size=(64, 32, 32),
                             p=[0.6, 0.25, 0.08, 0.04, 0.03])
    images = np.random.rand(64, 3, 32, 32).astype(np.float32)
    weights = torch.tensor(median_frequency_weights(masks, N_CLASSES), dtype=torch.float32)
    print("class weights:", weights.tolist())

    model = TinySeg(N_CLASSES).to(device)
    criterion = nn.CrossEntropyLoss(weight=weights, ignore_index=VOID)  # expect: DEV012
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = DataLoader(TensorDataset(torch.from_numpy(images), torch.from_numpy(masks).long()),
                        batch_size=8, shuffle=True)
    for epoch in range(2):
        for img, mask in loader:
            img, mask = img.to(device), mask.to(device)
            loss = criterion(model(img), mask)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: {loss.item():.3f}")


if __name__ == "__main__":
    main()
