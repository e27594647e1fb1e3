"""Tests for a log-mel front end; the GPU comparison is skipped on machines
without CUDA, the device-agnostic tests parametrise over what is present."""
import math

import pytest
import torch
import torch.nn as nn

DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")


class LogMel(nn.Module):
    def __init__(self, n_fft=512, hop=160, n_mels=40, sr=16000):
        super().__init__()
        self.n_fft, self.hop = n_fft, hop
        self.register_buffer("window", torch.hann_window(n_fft))
        freqs = torch.linspace(0, sr / 2, n_fft // 2 + 1)
        centres = torch.linspace(0, sr / 2, n_mels + 2)
        width = centres[1] - centres[0]
        fb = (1 - (freqs[None, :] - centres[1:-1, None]).abs() / width).clamp(min=0)
        self.register_buffer("fb", fb)

    def forward(self, wave):
        spec = torch.stft(wave, self.n_fft, self.hop, window=self.window, return_complex=True)
        return torch.log(self.fb @ spec.abs() ** 2 + 1e-6)


@pytest.fixture
def chirp():
    t = torch.arange(16000) / 16000
    return torch.sin(2 * math.pi * (200 + 1500 * t) * t).unsqueeze(0)


@pytest.mark.parametrize("device", DEVICES)
def test_shape(chirp, device):
    feats = LogMel().to(device)(chirp.to(device))
    assert feats.shape == (1, 40, 16000 // 160 + 1)


@pytest.mark.parametrize("device", DEVICES)
def test_finite(chirp, device):
    assert torch.isfinite(LogMel().to(device)(chirp.to(device))).all()


@requires_cuda
def test_gpu_matches_cpu(chirp):
    frontend = LogMel()
    expected = frontend(chirp)
    got = frontend.cuda()(chirp.cuda())
    torch.testing.assert_close(got.cpu(), expected, rtol=1e-3, atol=1e-3)
