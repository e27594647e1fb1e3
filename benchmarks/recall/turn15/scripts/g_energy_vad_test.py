import pytest
import torch
import torch.nn as nn

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
DEVICES = ["cpu", pytest.param("cuda", marks=requires_cuda)]


class EnergyVAD(nn.Module):
    """Frame-energy voice activity detector with a learnable threshold offset."""

    def __init__(self, frame=400, hop=160):
        super().__init__()
        self.frame, self.hop = frame, hop
        self.offset = nn.Parameter(torch.tensor(0.0))
        self.register_buffer("window", torch.hamming_window(frame))

    def forward(self, wav):
        frames = wav.unfold(-1, self.frame, self.hop) * self.window
        energy = 10 * torch.log10(frames.pow(2).mean(-1) + 1e-10)
        thresh = energy.median(dim=-1, keepdim=True).values + self.offset
        return energy > thresh


def tone_with_silence(device):
    wav = torch.zeros(1, 16000, device=device)
    t = torch.arange(8000, device=device) / 16000
    wav[0, 4000:12000] = 0.5 * torch.sin(2 * torch.pi * 440 * t)
    return wav


@pytest.mark.parametrize("device", DEVICES)
def test_detects_tone(device):
    vad = EnergyVAD().to(device)
    speech = vad(tone_with_silence(device))
    assert speech.device.type == device
    assert speech[0, 40:60].all()
    assert not speech[0, :10].any()


@requires_cuda
def test_cuda_matches_cpu():
    vad = EnergyVAD()
    wav = tone_with_silence("cpu")
    ref = vad(wav)
    out = vad.cuda()(wav.cuda()).cpu()
    assert torch.equal(out, ref)


def test_half_on_gpu():
    if not torch.cuda.is_available():
        pytest.skip("CUDA not available")
    vad = EnergyVAD().cuda().half()
    out = vad(tone_with_silence("cuda").half())
    assert out.dtype == torch.bool
