import math

import pytest
import torch
import torch.nn as nn


class LogMel(nn.Module):
    def __init__(self, n_fft=400, hop=160, n_mels=40, sample_rate=16000):
        super().__init__()
        self.n_fft, self.hop = n_fft, hop
        self.register_buffer("window", torch.hann_window(n_fft))
        freqs = torch.linspace(0, sample_rate / 2, n_fft // 2 + 1)
        centers = torch.linspace(0, sample_rate / 2, n_mels + 2)
        width = centers[1] - centers[0]
        fb = 1 - (freqs[:, None] - centers[None, 1:-1]).abs() / width
        self.register_buffer("fb", fb.clamp(min=0))

    def forward(self, wav):
        spec = torch.stft(wav, self.n_fft, self.hop, window=self.window, return_complex=True)
        return torch.log(spec.abs().pow(2).transpose(-1, -2) @ self.fb + 1e-6)


def sine(freq, sr=16000, seconds=0.5):
    t = torch.arange(int(sr * seconds)) / sr
    return torch.sin(2 * math.pi * freq * t)


def test_output_shape():
    fe = LogMel()
    out = fe(torch.randn(2, 16000))
    assert out.shape == (2, 16000 // 160 + 1, 40)


def test_peak_moves_with_frequency():
    fe = LogMel()
    low = fe(sine(300)[None]).mean(1).argmax()
    high = fe(sine(3000)[None]).mean(1).argmax()
    assert high > low


@pytest.mark.parametrize("batch", [1, 4])
def test_gpu_matches_cpu(batch):
    fe = LogMel()
    wav = torch.randn(batch, 8000)
    ref = fe(wav)
    fe_gpu = fe.to("cuda")  # expect: DEV022
    out = fe_gpu(wav.to("cuda")).cpu()
    torch.testing.assert_close(out, ref, rtol=1e-3, atol=1e-3)


def test_half_precision_on_gpu():
    fe = LogMel(n_fft=512, hop=128).cuda().half()  # expect: DEV022
    out = fe(torch.randn(1, 8000, device="cuda", dtype=torch.half))
    assert torch.isfinite(out).all()
