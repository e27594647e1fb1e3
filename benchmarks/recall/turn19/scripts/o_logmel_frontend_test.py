"""Tests for the log-mel front end used by the speech models (run with pytest)."""
import math

import pytest
import torch
import torch.nn as nn


class LogMelFrontend(nn.Module):
    def __init__(self, sample_rate=16000, n_fft=512, hop=160, n_mels=64):
        super().__init__()
        self.n_fft, self.hop = n_fft, hop
        self.register_buffer("window", torch.hann_window(n_fft))
        freqs = torch.linspace(0, sample_rate / 2, n_fft // 2 + 1)
        mel = 2595 * torch.log10(1 + freqs / 700)
        edges = torch.linspace(mel[0].item(), mel[-1].item(), n_mels + 2)
        fb = torch.clamp(1 - (mel[None, :] - edges[1:-1, None]).abs() / (edges[1] - edges[0]), min=0)
        self.register_buffer("fb", fb)  # n_mels x n_freq

    def forward(self, wav):
        spec = torch.stft(wav, self.n_fft, self.hop, window=self.window, return_complex=True).abs() ** 2
        return torch.log(self.fb @ spec + 1e-6)


@pytest.fixture
def frontend():
    return LogMelFrontend()


def test_output_shape(frontend):
    wav = torch.randn(2, 16000)
    out = frontend(wav)
    assert out.shape == (2, 64, 16000 // 160 + 1)


def test_tone_energy_in_expected_band(frontend):
    t = torch.arange(16000) / 16000
    wav = torch.sin(2 * math.pi * 1000 * t)[None]
    band_energy = frontend(wav).mean(-1)[0]
    assert band_energy.argmax().item() in range(20, 40)


def test_gpu_matches_cpu(frontend):
    wav = torch.randn(3, 8000)
    ref = frontend(wav)
    out = frontend.to("cuda")(wav.to("cuda"))  # expect: DEV022
    torch.testing.assert_close(out.cpu(), ref, rtol=1e-3, atol=1e-3)
