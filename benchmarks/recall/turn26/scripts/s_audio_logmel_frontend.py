"""Keyword spotting on raw waveforms: log-mel front-end built in __init__, small CNN on top.
Saves an embedding plot of the validation clips at the end."""
import argparse
import math

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def mel_filterbank(n_fft, n_mels, sr):
    def hz_to_mel(f):
        return 2595.0 * math.log10(1.0 + f / 700.0)

    n_freqs = n_fft // 2 + 1
    mels = torch.linspace(hz_to_mel(0.0), hz_to_mel(sr / 2), n_mels + 2)
    hz = 700.0 * (10 ** (mels / 2595.0) - 1.0)
    freqs = torch.linspace(0, sr / 2, n_freqs)
    fb = torch.zeros(n_freqs, n_mels)
    for m in range(1, n_mels + 1):
        lo, c, hi = hz[m - 1], hz[m], hz[m + 1]
        up = (freqs - lo) / (c - lo)
        down = (hi - freqs) / (hi - c)
        fb[:, m - 1] = torch.clamp(torch.minimum(up, down), min=0.0)
    return fb


class LogMel(nn.Module):
    def __init__(self, sr=16000, n_fft=400, hop=160, n_mels=40):
        super().__init__()
        self.n_fft, self.hop = n_fft, hop
        self.window = torch.hann_window(n_fft)  # expect: DEV010
        self.register_buffer("fb", mel_filterbank(n_fft, n_mels, sr))

    def forward(self, wav):
        spec = torch.stft(wav, self.n_fft, self.hop, window=self.window, return_complex=True)
        power = spec.abs() ** 2
        mel = torch.matmul(power.transpose(1, 2), self.fb)
        return torch.log(mel + 1e-6).transpose(1, 2)


class KWSNet(nn.Module):
    def __init__(self, n_words=8, n_mels=40):
        super().__init__()
        self.frontend = LogMel(n_mels=n_mels)
        self.conv = nn.Sequential(nn.Conv1d(n_mels, 64, 5, padding=2), nn.ReLU(),
                                  nn.Conv1d(64, 64, 5, padding=2), nn.ReLU())
        self.fc = nn.Linear(64, n_words)

    def embed(self, wav):
        return self.conv(self.frontend(wav)).mean(dim=-1)

    def forward(self, wav):
        return self.fc(self.embed(wav))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--plot", default="kws_embeddings.png")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    t = torch.arange(16000) / 16000
    labels = torch.randint(0, 8, (96,))
    wavs = torch.sin(2 * math.pi * (200 + 100 * labels[:, None]) * t) + 0.1 * torch.randn(96, 16000)
    train = DataLoader(TensorDataset(wavs[:80], labels[:80]), batch_size=16, shuffle=True)
    val = DataLoader(TensorDataset(wavs[80:], labels[80:]), batch_size=16)

    model = KWSNet().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        for wav, y in train:
            wav, y = wav.to(device), y.to(device)
            loss = F.cross_entropy(model(wav), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: {loss.item():.3f}")

    model.eval()
    with torch.no_grad():
        wav, y = next(iter(val))
        emb = model.embed(wav.to(device))
        pts = emb[:, :2].numpy()  # expect: DEV011
    plt.scatter(pts[:, 0], pts[:, 1], c=y.numpy(), cmap="tab10")
    plt.savefig(args.plot)


if __name__ == "__main__":
    main()
