"""Unit tests for the audio front end: pre-emphasis, framing and a log-mel
module, including a check that GPU and CPU features agree."""
import math

import pytest
import torch
import torch.nn as nn


def pre_emphasis(wave, coeff=0.97):
    return torch.cat([wave[..., :1], wave[..., 1:] - coeff * wave[..., :-1]], dim=-1)


def frame_signal(wave, frame_len=400, hop=160):
    return wave.unfold(-1, frame_len, hop)


class LogPowerSpectrum(nn.Module):
    def __init__(self, n_fft=512, hop=160):
        super().__init__()
        self.n_fft, self.hop = n_fft, hop
        self.register_buffer("window", torch.hann_window(n_fft))

    def forward(self, wave):
        spec = torch.stft(wave, self.n_fft, self.hop, window=self.window, return_complex=True)
        return torch.log(spec.abs() ** 2 + 1e-10)


@pytest.fixture
def tone():
    t = torch.arange(16000) / 16000
    return torch.sin(2 * math.pi * 440 * t).unsqueeze(0)


def test_pre_emphasis_keeps_length(tone):
    assert pre_emphasis(tone).shape == tone.shape


def test_framing_shape(tone):
    frames = frame_signal(tone)
    assert frames.shape == (1, (16000 - 400) // 160 + 1, 400)


def test_peak_bin_matches_tone(tone):
    spec = LogPowerSpectrum()(tone)
    peak = spec[0].mean(-1).argmax().item()
    assert abs(peak * 16000 / 512 - 440) < 16000 / 512


def test_gpu_matches_cpu(tone):
    frontend = LogPowerSpectrum()
    cpu_feats = frontend(tone)
    gpu_feats = frontend.to("cuda")(tone.cuda())  # expect: DEV022
    torch.testing.assert_close(gpu_feats.cpu(), cpu_feats, rtol=1e-3, atol=1e-3)
