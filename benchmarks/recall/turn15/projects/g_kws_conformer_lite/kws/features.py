import math

import torch
import torch.nn as nn


def mel_fb(n_freqs, n_mels, sr):
    def hz2mel(f):
        return 2595 * math.log10(1 + f / 700)

    mels = torch.linspace(hz2mel(0), hz2mel(sr / 2), n_mels + 2)
    hz = 700 * (10 ** (mels / 2595) - 1)
    freqs = torch.linspace(0, sr / 2, n_freqs)
    lower = (freqs[:, None] - hz[None, :-2]) / (hz[1:-1] - hz[:-2])
    upper = (hz[None, 2:] - freqs[:, None]) / (hz[2:] - hz[1:-1])
    return torch.clamp(torch.minimum(lower, upper), min=0)


class LogMel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.n_fft, self.hop = cfg.n_fft, cfg.hop
        self.register_buffer("window", torch.hann_window(cfg.n_fft), persistent=False)
        self.register_buffer("fb", mel_fb(cfg.n_fft // 2 + 1, cfg.n_mels, cfg.sample_rate), persistent=False)

    def forward(self, wav):
        spec = torch.stft(wav, self.n_fft, self.hop, window=self.window, return_complex=True)
        return torch.log(spec.abs().pow(2).transpose(1, 2) @ self.fb + 1e-6)  # (B, T, n_mels)


class SpecAugment(nn.Module):
    def __init__(self, freq_masks=2, freq_width=6, time_masks=2, time_width=10):
        super().__init__()
        self.freq_masks, self.freq_width = freq_masks, freq_width
        self.time_masks, self.time_width = time_masks, time_width

    def forward(self, feats):
        if not self.training:
            return feats
        B, T, F = feats.shape
        mask = torch.zeros(B, T, F, dtype=torch.bool, device=feats.device)
        for _ in range(self.freq_masks):
            w = torch.randint(0, self.freq_width + 1, (B, 1, 1), device=feats.device)
            f0 = torch.randint(0, F, (B, 1, 1), device=feats.device)
            idx = torch.arange(F, device=feats.device)[None, None, :]
            mask |= (idx >= f0) & (idx < f0 + w)
        for _ in range(self.time_masks):
            w = torch.randint(0, self.time_width + 1, (B, 1, 1), device=feats.device)
            t0 = torch.randint(0, T, (B, 1, 1), device=feats.device)
            idx = torch.arange(T, device=feats.device)[None, :, None]
            mask |= (idx >= t0) & (idx < t0 + w)
        return feats.masked_fill(mask, 0.0)
