"""Keyword spotting baseline: log-mel front end as a module + small CNN.

Audio here is synthetic (chirps at class-dependent pitch) so the script runs anywhere.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

SAMPLE_RATE = 8000
N_FFT = 256
HOP = 128
N_MELS = 32
NUM_CLASSES = 5


def hz_to_mel(f):
    return 2595.0 * math.log10(1.0 + f / 700.0)


def mel_to_hz(m):
    return 700.0 * (10 ** (m / 2595.0) - 1.0)


def mel_filterbank(n_fft, n_mels, sr, fmin=20.0, fmax=None):
    fmax = fmax or sr / 2
    n_freqs = n_fft // 2 + 1
    mels = torch.linspace(hz_to_mel(fmin), hz_to_mel(fmax), n_mels + 2)
    hz = torch.tensor([mel_to_hz(m.item()) for m in mels])
    bins = torch.linspace(0, sr / 2, n_freqs)
    fb = torch.zeros(n_mels, n_freqs)
    for i in range(n_mels):
        lo, c, hi = hz[i], hz[i + 1], hz[i + 2]
        up = (bins - lo) / (c - lo)
        down = (hi - bins) / (hi - c)
        fb[i] = torch.clamp(torch.minimum(up, down), min=0.0)
    return fb


class LogMel(nn.Module):
    def __init__(self, sr=SAMPLE_RATE, n_fft=N_FFT, hop=HOP, n_mels=N_MELS):
        super().__init__()
        self.n_fft, self.hop = n_fft, hop
        self.register_buffer("window", torch.hann_window(n_fft))
        self.fb = mel_filterbank(n_fft, n_mels, sr)  # expect: DEV010

    def forward(self, wav):
        spec = torch.stft(wav, self.n_fft, self.hop, window=self.window, return_complex=True)
        power = spec.abs() ** 2                     # (B, F, T)
        mel = torch.matmul(self.fb, power)          # (B, M, T)
        return torch.log(mel + 1e-6)


class KWSNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.frontend = LogMel()
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc = nn.Linear(32, NUM_CLASSES)

    def forward(self, wav):
        x = self.frontend(wav).unsqueeze(1)
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.relu(self.conv2(x))
        x = x.mean(dim=(2, 3))
        return self.fc(x)


class ChirpDataset(Dataset):
    def __init__(self, n, seconds=0.5, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.labels = torch.randint(0, NUM_CLASSES, (n,), generator=g)
        t = torch.arange(int(SAMPLE_RATE * seconds)) / SAMPLE_RATE
        self.wavs = []
        for y in self.labels.tolist():
            f0 = 300 + 400 * y
            phase = 2 * math.pi * (f0 * t + 200 * t ** 2)
            self.wavs.append(0.5 * torch.sin(phase) + 0.02 * torch.randn(t.shape, generator=g))

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.wavs[i], self.labels[i]


def train_one_epoch(model, loader, criterion, optimizer, device):
    model.train()
    running, correct, seen = 0.0, 0, 0
    for wav, labels in loader:
        wav = wav.to(device, non_blocking=True)
        logits = model(wav)
        loss = criterion(logits, labels)  # expect: DEV004
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss.item() * wav.size(0)
        correct += (logits.argmax(1).cpu() == labels).sum().item()
        seen += wav.size(0)
    return running / seen, correct / seen


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_dl = DataLoader(ChirpDataset(200), batch_size=16, shuffle=True)
    model = KWSNet().to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        loss, acc = train_one_epoch(model, train_dl, criterion, optimizer, device)
        print(f"epoch {epoch} loss {loss:.3f} acc {acc:.3f}")


if __name__ == "__main__":
    main()
