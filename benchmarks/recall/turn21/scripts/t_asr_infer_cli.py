"""Keyword-spotting inference CLI: log-mel front end, small CNN, CTC-free frame voting.

    python t_asr_infer_cli.py --ckpt kws.pt --wav-seconds 1.0 [--cpu]

The checkpoint comes from the training box (GPU); this script is what users run on
their laptops, so it must work without CUDA."""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

KEYWORDS = ["_silence_", "yes", "no", "up", "down", "stop"]
SR, N_FFT, HOP, N_MELS = 16000, 400, 160, 40


def mel_filterbank(n_mels=N_MELS, n_fft=N_FFT, sr=SR):
    def hz_to_mel(f):
        return 2595 * math.log10(1 + f / 700)
    mels = torch.linspace(hz_to_mel(0), hz_to_mel(sr / 2), n_mels + 2)
    hz = 700 * (10 ** (mels / 2595) - 1)
    bins = torch.floor((n_fft + 1) * hz / sr).long()
    fb = torch.zeros(n_mels, n_fft // 2 + 1)
    for m in range(1, n_mels + 1):
        l, c, r = bins[m - 1], bins[m], bins[m + 1]
        for k in range(l, c):
            fb[m - 1, k] = (k - l) / max(c - l, 1)
        for k in range(c, r):
            fb[m - 1, k] = (r - k) / max(r - c, 1)
    return fb


def log_mel(wave, fb):
    window = torch.hann_window(N_FFT).to("cuda")  # expect: DEV001
    spec = torch.stft(wave.to(window.device), N_FFT, HOP, window=window, return_complex=True).abs() ** 2
    return torch.log(fb.to(spec.device) @ spec + 1e-6)


class KWSNet(nn.Module):
    def __init__(self, n_classes=len(KEYWORDS)):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(N_MELS, 64, 5, padding=2), nn.ReLU(), nn.Conv1d(64, 64, 5, padding=2), nn.ReLU())
        self.cls = nn.Conv1d(64, n_classes, 1)

    def forward(self, mel):
        return self.cls(self.conv(mel))


def load_model(path, device):
    model = KWSNet()
    model.load_state_dict(torch.load(path))  # expect: DEV008
    return model.to(device).eval()


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", required=True)
    ap.add_argument("--wav-seconds", type=float, default=1.0)
    ap.add_argument("--cpu", action="store_true")
    args = ap.parse_args(argv)
    device = torch.device("cpu" if args.cpu or not torch.cuda.is_available() else "cuda")

    model = load_model(args.ckpt, device)
    wave = 0.1 * torch.randn(int(SR * args.wav_seconds))  # stands in for soundfile.read(...)
    mel = log_mel(wave, mel_filterbank()).unsqueeze(0).to(device)
    with torch.no_grad():
        frame_logits = model(mel)
    votes = F.softmax(frame_logits, 1).mean(-1).squeeze(0)
    best = int(votes.argmax())
    print(f"keyword: {KEYWORDS[best]} ({votes[best].item():.2f})")


if __name__ == "__main__":
    main()
