"""Keyword-spotting network with its own log-mel front end: STFT power spectrum, triangular mel
filterbank, log, then a small CNN.

Thread: https://github.com/speechbrain/speechbrain/issues/2585 (a feature extractor whose window
is not a buffer is copied host-to-device at every forward call, or left on the CPU).
"""
import torch
import torch.nn as nn


class LogMel(nn.Module):
    def __init__(self, n_fft=256, n_mels=40):
        super().__init__()
        self.n_fft = n_fft
        self.register_buffer("window", torch.hann_window(n_fft))
        freqs = torch.linspace(0, 1, n_fft // 2 + 1)
        centres = torch.linspace(0, 1, n_mels + 2)
        width = centres[1] - centres[0]
        fb = (1 - (freqs[None, :] - centres[1:-1, None]).abs() / width).clamp_min(0)
        self.fbank = fb / fb.sum(1, keepdim=True).clamp_min(1e-6)  # expect: DEV010

    def forward(self, wav):
        spec = torch.stft(wav, self.n_fft, hop_length=self.n_fft // 2, window=self.window,
                          return_complex=True).abs().pow(2)
        return torch.log(self.fbank @ spec + 1e-6)


class KWSNet(nn.Module):
    def __init__(self, n_fft, n_mels, n_keywords):
        super().__init__()
        self.frontend = LogMel(n_fft, n_mels)
        self.cnn = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
                                 nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(),
                                 nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(32, n_keywords)

    def forward(self, wav):
        mel = self.frontend(wav).unsqueeze(1)
        return self.fc(self.cnn(mel).flatten(1))
