"""Keyword spotting: a log-mel front end as a module in front of a small CNN."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def mel_filterbank(sr, n_fft, n_mels):
    def hz_to_mel(f):
        return 2595 * math.log10(1 + f / 700)

    mels = torch.linspace(hz_to_mel(0), hz_to_mel(sr / 2), n_mels + 2)
    hz = 700 * (10 ** (mels / 2595) - 1)
    bins = torch.floor((n_fft + 1) * hz / sr).long()
    fb = torch.zeros(n_mels, n_fft // 2 + 1)
    for m in range(1, n_mels + 1):
        lo, c, hi = bins[m - 1].item(), bins[m].item(), bins[m + 1].item()
        for k in range(lo, c):
            fb[m - 1, k] = (k - lo) / max(c - lo, 1)
        for k in range(c, hi):
            fb[m - 1, k] = (hi - k) / max(hi - c, 1)
    return fb


class LogMel(nn.Module):
    def __init__(self, sr=8000, n_fft=256, hop=128, n_mels=20):
        super().__init__()
        self.n_fft, self.hop = n_fft, hop
        self.fb = mel_filterbank(sr, n_fft, n_mels)  # expect: DEV010

    def forward(self, wav):
        win = torch.hann_window(self.n_fft)  # expect: DEV006
        spec = torch.stft(wav, self.n_fft, self.hop, window=win, return_complex=True).abs().pow(2)
        return torch.log(torch.matmul(self.fb, spec) + 1e-6).unsqueeze(1)


class KWSNet(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.frontend = LogMel()
        self.conv = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(16, n_classes)

    def forward(self, wav):
        return self.fc(self.conv(self.frontend(wav)).flatten(1))


def synth(n=96, sr=8000, n_classes=3):
    t = torch.arange(sr // 2) / sr
    labels = torch.randint(0, n_classes, (n,))
    freqs = 300.0 + 500.0 * labels.float()
    wav = torch.sin(2 * math.pi * freqs[:, None] * t) + 0.3 * torch.randn(n, t.numel())
    return wav, labels


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    wav, labels = synth()
    train_loader = DataLoader(TensorDataset(wav, labels), batch_size=16, shuffle=True)
    model = KWSNet(3).to(device)
    criterion = nn.CrossEntropyLoss()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)

    wav, label = next(iter(train_loader))
    wav, label = wav.to(device), label.to(device)  # expect: DEV003
    print("first batch", tuple(wav.shape), label.tolist()[:8])
    for epoch in range(3):
        correct = 0
        for wav, label in train_loader:
            logits = model(wav)  # also: DEV002
            loss = criterion(logits, label)  # also: DEV004
            opt.zero_grad()
            loss.backward()
            opt.step()
            correct += (logits.argmax(1) == label).sum().item()
        print(f"epoch {epoch} loss {loss.item():.3f} acc {correct / len(train_loader.dataset):.2f}")


if __name__ == "__main__":
    main()
