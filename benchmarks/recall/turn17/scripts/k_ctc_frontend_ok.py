"""Character CTC model on synthetic tone "speech": waveform -> log-mel (module) -> conv + GRU -> CTC.

The feature extractor lives inside the model so a single .to(device) moves everything,
including its window and mel filterbank buffers.
"""
import math
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader

SR = 8000
ALPHABET = "_abcdefg"           # "_" = blank
TONE = {c: 300 + 150 * i for i, c in enumerate(ALPHABET[1:])}


def triangular_fb(n_fft, n_mels, sr):
    mel = lambda f: 2595 * math.log10(1 + f / 700)
    inv = lambda m: 700 * (10 ** (m / 2595) - 1)
    pts = torch.tensor([inv(m) for m in torch.linspace(mel(0), mel(sr / 2), n_mels + 2).tolist()])
    freqs = torch.linspace(0, sr / 2, n_fft // 2 + 1)
    lower = (freqs[None] - pts[:-2, None]) / (pts[1:-1, None] - pts[:-2, None])
    upper = (pts[2:, None] - freqs[None]) / (pts[2:, None] - pts[1:-1, None])
    return torch.clamp(torch.minimum(lower, upper), min=0)


class LogMelSpec(nn.Module):
    def __init__(self, n_fft=256, hop=80, n_mels=40):
        super().__init__()
        self.n_fft, self.hop = n_fft, hop
        self.register_buffer("window", torch.hann_window(n_fft), persistent=False)
        self.register_buffer("fb", triangular_fb(n_fft, n_mels, SR), persistent=False)

    def forward(self, wav):
        spec = torch.stft(wav, self.n_fft, self.hop, window=self.window, return_complex=True).abs().pow(2)
        return torch.log1p(self.fb @ spec).transpose(1, 2)        # (B, T, M)

    def frames(self, n_samples):
        return n_samples // self.hop + 1


class SpecAugment(nn.Module):
    def __init__(self, time_width=8, freq_width=6):
        super().__init__()
        self.tw, self.fw = time_width, freq_width

    def forward(self, feats):
        if not self.training:
            return feats
        B, T, M = feats.shape
        t0 = torch.randint(0, max(T - self.tw, 1), (B, 1), device=feats.device)
        f0 = torch.randint(0, max(M - self.fw, 1), (B, 1), device=feats.device)
        t = torch.arange(T, device=feats.device)[None]
        f = torch.arange(M, device=feats.device)[None]
        tmask = (t >= t0) & (t < t0 + self.tw)
        fmask = (f >= f0) & (f < f0 + self.fw)
        return feats.masked_fill(tmask[:, :, None] | fmask[:, None, :], 0.0)


class ASR(nn.Module):
    def __init__(self, n_mels=40, hidden=96):
        super().__init__()
        self.frontend = LogMelSpec(n_mels=n_mels)
        self.augment = SpecAugment()
        self.conv = nn.Conv1d(n_mels, hidden, 5, padding=2)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, len(ALPHABET))

    def forward(self, wav):
        x = self.augment(self.frontend(wav))
        x = F.relu(self.conv(x.transpose(1, 2))).transpose(1, 2)
        x, _ = self.rnn(x)
        return self.out(x).log_softmax(-1)


def synth(text, seg=0.08):
    n = int(SR * seg)
    t = torch.arange(n) / SR
    return torch.cat([0.5 * torch.sin(2 * math.pi * TONE[c] * t) for c in text]) + 0.01 * torch.randn(n * len(text))


def make_dataset(n=120, seed=0):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        text = "".join(rng.choice(ALPHABET[1:]) for _ in range(rng.randint(2, 5)))
        out.append((synth(text), torch.tensor([ALPHABET.index(c) for c in text])))
    return out


def collate(batch):
    wavs, ys = zip(*batch)
    wav_lens = torch.tensor([w.numel() for w in wavs])
    return pad_sequence(wavs, batch_first=True), wav_lens, torch.cat(ys), torch.tensor([len(y) for y in ys])


class Trainer:
    def __init__(self, model, device, lr=3e-3):
        self.model = model.to(device)
        self.device = device
        self.opt = torch.optim.Adam(self.model.parameters(), lr=lr)
        self.ctc = nn.CTCLoss(blank=0, zero_infinity=True)

    def step(self, wavs, wav_lens, targets, tgt_lens):
        self.model.train()
        log_probs = self.model(wavs.to(self.device))
        in_lens = self.model.frontend.frames(wav_lens)        # CPU int64, as CTCLoss accepts
        loss = self.ctc(log_probs.transpose(0, 1), targets.to(self.device), in_lens, tgt_lens)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    @torch.no_grad()
    def decode(self, wavs, wav_lens):
        self.model.eval()
        best = self.model(wavs.to(self.device)).argmax(-1).cpu().numpy()
        lens = self.model.frontend.frames(wav_lens).tolist()
        hyps = []
        for seq, L in zip(best, lens):
            chars, prev = [], 0
            for s in seq[:L]:
                if s != prev and s != 0:
                    chars.append(ALPHABET[s])
                prev = s
            hyps.append("".join(chars))
        return hyps


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loader = DataLoader(make_dataset(), batch_size=12, shuffle=True, collate_fn=collate)
    trainer = Trainer(ASR(), device)
    for epoch in range(4):
        losses = [trainer.step(*batch) for batch in loader]
        print(f"epoch {epoch} ctc {sum(losses) / len(losses):.3f}")
    wavs, wav_lens, _, _ = next(iter(loader))
    print(trainer.decode(wavs, wav_lens)[:4])


if __name__ == "__main__":
    main()
