"""Tiny CTC acoustic model with an in-model log-mel front end (no torchaudio needed)."""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, Dataset

VOCAB = ["_", " "] + [chr(c) for c in range(ord("a"), ord("z") + 1)]
BLANK = 0


def hz_to_mel(f):
    return 2595.0 * math.log10(1.0 + f / 700.0)


def mel_filterbank(n_freqs, n_mels, sample_rate):
    mel_pts = torch.linspace(hz_to_mel(0.0), hz_to_mel(sample_rate / 2), n_mels + 2)
    hz_pts = 700.0 * (10 ** (mel_pts / 2595.0) - 1.0)
    bins = torch.linspace(0, sample_rate / 2, n_freqs)
    fb = torch.zeros(n_freqs, n_mels)
    for m in range(1, n_mels + 1):
        lo, c, hi = hz_pts[m - 1], hz_pts[m], hz_pts[m + 1]
        up = (bins - lo) / (c - lo)
        down = (hi - bins) / (hi - c)
        fb[:, m - 1] = torch.clamp(torch.minimum(up, down), min=0.0)
    return fb


class LogMel(nn.Module):
    def __init__(self, sample_rate=16000, n_fft=400, hop=160, n_mels=40):
        super().__init__()
        self.n_fft, self.hop = n_fft, hop
        self.window = torch.hann_window(n_fft)  # expect: DEV010
        self.register_buffer("fb", mel_filterbank(n_fft // 2 + 1, n_mels, sample_rate))

    def forward(self, wav):
        spec = torch.stft(wav, self.n_fft, self.hop, window=self.window, return_complex=True)
        power = spec.abs().pow(2).transpose(1, 2)  # (B, T, F)
        return torch.log(power @ self.fb + 1e-6)


class CTCModel(nn.Module):
    def __init__(self, n_mels=40, hidden=96, vocab=len(VOCAB)):
        super().__init__()
        self.frontend = LogMel(n_mels=n_mels)
        self.subsample = nn.Conv1d(n_mels, hidden, kernel_size=3, stride=2, padding=1)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True, bidirectional=True)
        self.head = nn.Linear(2 * hidden, vocab)

    def forward(self, wav):
        feats = self.frontend(wav)
        h = F.relu(self.subsample(feats.transpose(1, 2))).transpose(1, 2)
        h, _ = self.rnn(h)
        return self.head(h).log_softmax(-1)

    @staticmethod
    def output_lengths(wav_lengths, hop=160):
        frames = wav_lengths // hop + 1
        return (frames - 1) // 2 + 1


class SyntheticSpeech(Dataset):
    def __init__(self, n=32, sr=16000):
        g = torch.Generator().manual_seed(0)
        self.items = []
        for _ in range(n):
            dur = int(sr * (0.5 + 0.5 * torch.rand(1, generator=g).item()))
            wav = 0.1 * torch.randn(dur, generator=g)
            length = int(torch.randint(3, 10, (1,), generator=g))
            text = torch.randint(2, len(VOCAB), (length,), generator=g)
            self.items.append((wav, text))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    wavs, texts = zip(*batch)
    wav_lens = torch.tensor([w.numel() for w in wavs])
    txt_lens = torch.tensor([t.numel() for t in texts])
    return pad_sequence(wavs, batch_first=True), wav_lens, torch.cat(texts), txt_lens


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = ap.parse_args()
    device = torch.device(args.device)

    loader = DataLoader(SyntheticSpeech(), batch_size=8, shuffle=True, collate_fn=collate)
    model = CTCModel().to(device)
    ctc = nn.CTCLoss(blank=BLANK, zero_infinity=True)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

    for epoch in range(args.epochs):
        for wavs, wav_lens, targets, target_lens in loader:
            wavs, targets = wavs.to(device), targets.to(device)
            log_probs = model(wavs)  # (B, T, V)
            out_lens = CTCModel.output_lengths(wav_lens).clamp(max=log_probs.size(1))
            loss = ctc(log_probs.transpose(0, 1), targets, out_lens, target_lens)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
        print(f"epoch {epoch} ctc {loss.item():.3f}")


if __name__ == "__main__":
    main()
