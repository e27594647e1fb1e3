"""Keyword spotting on synthetic tones: log-mel front end written by hand (no torchaudio); window and filterbank are buffers."""
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

SAMPLE_RATE = 8000
N_FFT = 256
HOP = 128
N_MELS = 32


def hz_to_mel(f):
    return 2595.0 * np.log10(1.0 + f / 700.0)


def mel_to_hz(m):
    return 700.0 * (10 ** (m / 2595.0) - 1.0)


def mel_filterbank(sr, n_fft, n_mels):
    freqs = np.linspace(0, sr / 2, n_fft // 2 + 1)
    mels = np.linspace(hz_to_mel(0), hz_to_mel(sr / 2), n_mels + 2)
    hz = mel_to_hz(mels)
    fb = np.zeros((n_mels, len(freqs)), dtype=np.float32)
    for i in range(n_mels):
        lo, c, hi = hz[i], hz[i + 1], hz[i + 2]
        up = (freqs - lo) / (c - lo)
        down = (hi - freqs) / (hi - c)
        fb[i] = np.maximum(0, np.minimum(up, down))
    return fb


def power_spectrogram(wave, window, n_fft=N_FFT, hop=HOP):
    spec = torch.stft(wave, n_fft, hop_length=hop, window=window, return_complex=True)
    return spec.abs() ** 2


class LogMel(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("fb", torch.from_numpy(mel_filterbank(SAMPLE_RATE, N_FFT, N_MELS)))
        self.register_buffer("window", torch.hann_window(N_FFT), persistent=False)

    def forward(self, wave):
        spec = power_spectrogram(wave, self.window)
        mel = torch.matmul(self.fb, spec)
        return torch.log(mel + 1e-6)


class KWSNet(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.frontend = LogMel()
        self.conv = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(32, n_classes)

    def forward(self, wave):
        x = self.frontend(wave).unsqueeze(1)
        return self.fc(self.conv(x).flatten(1))


def make_batch(batch=8, n_classes=4, seconds=0.5):
    t = torch.arange(int(SAMPLE_RATE * seconds)) / SAMPLE_RATE
    labels = torch.randint(0, n_classes, (batch,))
    freqs = 300.0 + 400.0 * labels.float()
    waves = torch.sin(2 * math.pi * freqs[:, None] * t[None, :]) + 0.1 * torch.randn(batch, t.numel())
    return waves, labels


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = KWSNet().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(20):
        waves, labels = make_batch()
        waves, labels = waves.to(device), labels.to(device)
        loss = F.cross_entropy(model(waves), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 5 == 0:
            print(step, round(loss.item(), 4))


if __name__ == "__main__":
    main()
