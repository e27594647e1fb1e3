"""CRNN text-line recogniser (conv features -> BiLSTM -> CTC) on rendered
digit strings. The shared server has the display on GPU 0, so training is
pinned to the second card."""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

ALPHABET = "0123456789"
IMG_H, IMG_W = 32, 96


class DigitLines(Dataset):
    """uint8 grey images with a digit string label (rendering faked by noise)."""

    def __init__(self, n=32, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.images = (torch.rand(n, 1, IMG_H, IMG_W, generator=g) * 255).to(torch.uint8)
        self.texts = ["".join(ALPHABET[int(d)] for d in torch.randint(0, 10, (int(k),), generator=g))
                      for k in torch.randint(3, 7, (n,), generator=g)]

    def __len__(self):
        return len(self.texts)

    def __getitem__(self, i):
        return self.images[i], self.texts[i]


class LabelConverter:
    def encode(self, texts):
        lengths = torch.IntTensor([len(t) for t in texts])
        flat = torch.IntTensor([ALPHABET.index(c) + 1 for t in texts for c in t])
        return flat, lengths


class CRNN(nn.Module):
    def __init__(self, n_classes=len(ALPHABET) + 1, hidden=48):
        super().__init__()
        self.cnn = nn.Sequential(
            nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d((2, 1)),
            nn.Conv2d(64, 64, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d((1, None)),
        )
        self.rnn = nn.LSTM(64, hidden, bidirectional=True, batch_first=True)
        self.fc = nn.Linear(2 * hidden, n_classes)

    def forward(self, x):
        f = self.cnn(x).squeeze(2).permute(0, 2, 1)  # (B, W', C)
        out, _ = self.rnn(f)
        return self.fc(out)


def to_model_input(images, device):
    images = images.to(device, non_blocking=True)
    images = images.type(torch.FloatTensor) / 255.0  # expect: DEV021
    return (images - 0.5) / 0.5


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args()

    device = torch.device("cuda:1" if torch.cuda.is_available() else "cpu")  # expect: DEV018
    converter = LabelConverter()
    loader = DataLoader(DigitLines(), batch_size=8, shuffle=True)

    model = CRNN().to(device)
    criterion = nn.CTCLoss(blank=0, zero_infinity=True)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        for images, texts in loader:
            x = to_model_input(images, device)
            preds = model(x).log_softmax(2)
            batch_size = preds.size(0)
            text, length = converter.encode(texts)
            preds_size = torch.IntTensor([preds.size(1)] * batch_size)  # lengths may stay on the CPU
            loss = criterion(preds.permute(1, 0, 2), text.to(device), preds_size, length)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} ctc {loss.item():.3f}")


if __name__ == "__main__":
    main()
