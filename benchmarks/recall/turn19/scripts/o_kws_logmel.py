"""Keyword spotting: log-mel front end inside the model, small CNN classifier.

The clips come from the loader as int16 PCM (what the wav reader gives us) and are
scaled to [-1, 1] on the fly.
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


def mel_filterbank(n_fft, n_mels, sample_rate, f_min=20.0, f_max=None):
    f_max = f_max or sample_rate / 2
    def hz_to_mel(f):
        return 2595.0 * math.log10(1.0 + f / 700.0)
    mels = torch.linspace(hz_to_mel(f_min), hz_to_mel(f_max), n_mels + 2)
    hz = 700.0 * (10 ** (mels / 2595.0) - 1.0)
    bins = torch.linspace(0, sample_rate / 2, n_fft // 2 + 1)
    fb = torch.zeros(n_fft // 2 + 1, n_mels)
    for m in range(n_mels):
        lo, c, hi = hz[m], hz[m + 1], hz[m + 2]
        up = (bins - lo) / (c - lo)
        down = (hi - bins) / (hi - c)
        fb[:, m] = torch.clamp(torch.minimum(up, down), min=0.0)
    return fb


class LogMel(nn.Module):
    def __init__(self, sample_rate=16000, n_fft=400, hop=160, n_mels=40):
        super().__init__()
        self.n_fft, self.hop = n_fft, hop
        self.window = torch.hann_window(n_fft)  # expect: DEV010
        self.register_buffer("fb", mel_filterbank(n_fft, n_mels, sample_rate))

    def forward(self, wav):
        spec = torch.stft(wav, self.n_fft, hop_length=self.hop, window=self.window, return_complex=True)
        power = spec.abs() ** 2                       # B x F x T
        mel = torch.matmul(power.transpose(1, 2), self.fb)  # B x T x M
        return torch.log(mel + 1e-6).transpose(1, 2)  # B x M x T


class KWSNet(nn.Module):
    def __init__(self, n_classes, n_mels=40):
        super().__init__()
        self.frontend = LogMel(n_mels=n_mels)
        self.norm = nn.InstanceNorm1d(n_mels)
        self.conv = nn.Sequential(
            nn.Conv1d(n_mels, 64, 5, padding=2), nn.ReLU(),
            nn.Conv1d(64, 64, 5, padding=2), nn.ReLU(),
        )
        self.fc = nn.Linear(64, n_classes)

    def forward(self, wav):
        x = self.norm(self.frontend(wav))
        x = self.conv(x).mean(dim=-1)
        return self.fc(x)


class ToneCommands(Dataset):
    """'Keywords' are short tone patterns; returns int16 clips like a wav reader."""

    def __init__(self, n, n_classes=4, sr=16000, seconds=0.5, seed=0):
        g = torch.Generator().manual_seed(seed)
        t = torch.arange(int(sr * seconds)) / sr
        self.labels = torch.randint(0, n_classes, (n,), generator=g)
        clips = []
        for lab in self.labels.tolist():
            f = 300.0 * (lab + 1)
            x = 0.5 * torch.sin(2 * math.pi * f * t) + 0.05 * torch.randn(t.shape, generator=g)
            clips.append((x * 32767).to(torch.int16))
        self.clips = torch.stack(clips)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.clips[i], self.labels[i]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--gpu", action="store_true", help="train on the GPU if there is one")
    args = ap.parse_args()
    device = torch.device("cuda" if args.gpu and torch.cuda.is_available() else "cpu")

    train = DataLoader(ToneCommands(96, seed=0), batch_size=16, shuffle=True)
    model = KWSNet(n_classes=4).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    for epoch in range(args.epochs):
        correct = 0
        for pcm, label in train:
            wav = pcm.to(device).type(torch.FloatTensor) / 32768.0  # expect: DEV021
            label = label.to(device)
            logits = model(wav)
            loss = F.cross_entropy(logits, label)
            opt.zero_grad()
            loss.backward()
            opt.step()
            correct += (logits.argmax(1) == label).sum().item()
        print(f"epoch {epoch}: loss {loss.item():.3f} acc {correct / len(train.dataset):.2f}")


if __name__ == "__main__":
    main()
