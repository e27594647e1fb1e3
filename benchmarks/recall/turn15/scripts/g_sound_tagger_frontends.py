"""Environmental sound tagger that fuses two feature front ends (log-mel + MFCC).

The class distribution of the clips is skewed, so the loss is re-weighted.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

SR = 8000
N_FFT = 256
HOP = 128
N_MELS = 32
N_CLASSES = 5


def dft_basis(n_fft):
    n = torch.arange(n_fft).float()
    k = torch.arange(n_fft // 2 + 1).float()
    ang = 2 * math.pi * k[:, None] * n[None, :] / n_fft
    win = torch.hann_window(n_fft)
    return torch.cos(ang) * win, -torch.sin(ang) * win


def tri_filterbank(n_freqs, n_mels):
    pts = torch.linspace(0, n_freqs - 1, n_mels + 2)
    idx = torch.arange(n_freqs).float()
    fb = torch.zeros(n_mels, n_freqs)
    for m in range(n_mels):
        l, c, r = pts[m], pts[m + 1], pts[m + 2]
        fb[m] = torch.clamp(torch.minimum((idx - l) / (c - l), (r - idx) / (r - c)), min=0)
    return fb


def dct_matrix(n_mfcc, n_mels):
    n = torch.arange(n_mels).float()
    k = torch.arange(n_mfcc).float()[:, None]
    return torch.cos(math.pi / n_mels * (n + 0.5) * k) * math.sqrt(2.0 / n_mels)


class LogMelFrontend(nn.Module):
    def __init__(self):
        super().__init__()
        cos_b, sin_b = dft_basis(N_FFT)
        self.register_buffer("cos_b", cos_b)
        self.register_buffer("sin_b", sin_b)
        self.register_buffer("fb", tri_filterbank(N_FFT // 2 + 1, N_MELS))

    def forward(self, wav):
        frames = wav.unfold(-1, N_FFT, HOP)  # (B, T, N_FFT)
        re = frames @ self.cos_b.T
        im = frames @ self.sin_b.T
        power = re ** 2 + im ** 2
        return torch.log(power @ self.fb.T + 1e-6)  # (B, T, N_MELS)


class MFCCFrontend(nn.Module):
    def __init__(self, n_mfcc=13):
        super().__init__()
        self.logmel = LogMelFrontend()
        self.register_buffer("dct", dct_matrix(n_mfcc, N_MELS))

    def forward(self, wav):
        return self.logmel(wav) @ self.dct.T


class FusionTagger(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.frontends = {"logmel": LogMelFrontend(), "mfcc": MFCCFrontend()}  # expect: DEV009
        self.proj = nn.Linear(N_MELS + 13, hidden)
        self.temporal = nn.Conv1d(hidden, hidden, 3, padding=1)
        self.cls = nn.Linear(hidden, N_CLASSES)

    def forward(self, wav):
        feats = torch.cat([fe(wav) for fe in self.frontends.values()], dim=-1)
        h = F.relu(self.proj(feats))
        h = F.relu(self.temporal(h.transpose(1, 2))).mean(-1)
        return self.cls(h)


def class_weights(labels):
    counts = torch.bincount(labels, minlength=N_CLASSES).float()
    return (counts.sum() / (N_CLASSES * counts.clamp(min=1))).tolist()


def train(epochs=2):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    wavs = 0.1 * torch.randn(60, SR // 2)
    labels = torch.multinomial(torch.tensor([0.5, 0.2, 0.15, 0.1, 0.05]), 60, replacement=True)
    loader = DataLoader(TensorDataset(wavs, labels), batch_size=12, shuffle=True)

    model = FusionTagger().to(device)
    criterion = nn.CrossEntropyLoss(weight=torch.tensor(class_weights(labels)))  # expect: DEV012
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    for epoch in range(epochs):
        correct = 0
        for wav, y in loader:
            wav, y = wav.to(device), y.to(device)
            logits = model(wav)
            loss = criterion(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            correct += (logits.argmax(1) == y).sum().item()
        print(f"epoch {epoch} loss {loss.item():.3f} acc {correct / len(wavs):.2f}")


if __name__ == "__main__":
    train()
