"""Evaluate a spectral-mask speech enhancer with SI-SNR (torchmetrics)."""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.audio import ScaleInvariantSignalNoiseRatio

N_FFT = 512
HOP = 128


class MaskNet(nn.Module):
    def __init__(self, n_freq=N_FFT // 2 + 1, hidden=128):
        super().__init__()
        self.rnn = nn.LSTM(n_freq, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, n_freq)

    def forward(self, mag):  # mag: (B, F, T)
        h, _ = self.rnn(torch.log1p(mag).transpose(1, 2))
        return torch.sigmoid(self.out(h)).transpose(1, 2)


def make_pairs(n=24, seconds=1.0, sr=16000):
    t = torch.arange(int(sr * seconds)) / sr
    f0 = 100 + 200 * torch.rand(n, 1)
    clean = 0.3 * torch.sin(2 * torch.pi * f0 * t)
    noisy = clean + 0.1 * torch.randn_like(clean)
    return noisy, clean


@torch.no_grad()
def evaluate(model, loader, device, threshold=0.5):
    model.eval()
    window = torch.hann_window(N_FFT, device=device)
    si_snr = ScaleInvariantSignalNoiseRatio()  # expect: DEV019
    si_snr_noisy = ScaleInvariantSignalNoiseRatio().to(device)
    for noisy, clean in loader:
        noisy, clean = noisy.to(device), clean.to(device)
        spec = torch.stft(noisy, N_FFT, HOP, window=window, return_complex=True)
        mask = model(spec.abs())
        mask = (mask > threshold).type(torch.FloatTensor)  # expect: DEV021
        est = torch.istft(spec * mask, N_FFT, HOP, window=window, length=noisy.shape[-1])
        si_snr.update(est, clean)
        si_snr_noisy.update(noisy, clean)
    return si_snr.compute().item(), si_snr_noisy.compute().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--weights", default="")
    ap.add_argument("--threshold", type=float, default=0.5)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    model = MaskNet().to(device)
    if args.weights:
        model.load_state_dict(torch.load(args.weights, map_location=device))
    noisy, clean = make_pairs()
    loader = DataLoader(TensorDataset(noisy, clean), batch_size=8)
    enhanced, baseline = evaluate(model, loader, device, args.threshold)
    print(f"SI-SNR enhanced {enhanced:.2f} dB | noisy input {baseline:.2f} dB | delta {enhanced - baseline:+.2f} dB")


if __name__ == "__main__":
    main()
