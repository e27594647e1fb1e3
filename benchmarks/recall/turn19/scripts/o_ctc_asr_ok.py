"""Small CTC acoustic model (BiLSTM over log-mel frames) on synthetic "spoken digits".

Each token is rendered as a short tone; utterances have different lengths, so the
encoder uses packed sequences and CTC gets the per-utterance frame counts.
"""
import argparse
import math
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence
from torch.utils.data import DataLoader, Dataset

SR = 8000
HOP = 80
VOCAB = ["<blank>", "a", "b", "c", "d"]


class LogMel(nn.Module):
    def __init__(self, n_fft=256, hop=HOP, n_mels=32):
        super().__init__()
        self.n_fft, self.hop = n_fft, hop
        self.register_buffer("window", torch.hann_window(n_fft))
        freqs = torch.linspace(0, SR / 2, n_fft // 2 + 1)
        centers = torch.linspace(0, SR / 2, n_mels + 2)
        width = centers[1] - centers[0]
        fb = torch.clamp(1 - (freqs[None, :] - centers[1:-1, None]).abs() / width, min=0)
        self.register_buffer("fb", fb)

    def forward(self, wav):
        spec = torch.stft(wav, self.n_fft, self.hop, window=self.window, center=True, return_complex=True)
        return torch.log(self.fb @ spec.abs().pow(2) + 1e-6).transpose(1, 2)  # B x T x M


class Decimate2(nn.Module):
    """Half-band FIR then drop every other sample (16 kHz recordings -> 8 kHz)."""

    def __init__(self, taps=31):
        super().__init__()
        n = torch.arange(taps) - taps // 2
        h = 0.5 * torch.sinc(0.5 * n) * torch.hamming_window(taps, periodic=False)
        self.register_buffer("h", (h / h.sum()).view(1, 1, -1))

    def forward(self, wav):
        return F.conv1d(wav.unsqueeze(1), self.h, padding=self.h.shape[-1] // 2)[:, 0, ::2]


class CTCModel(nn.Module):
    def __init__(self, input_sr=16000, n_mels=32, hidden=64):
        super().__init__()
        self.resample = Decimate2() if input_sr == 2 * SR else nn.Identity()
        self.frontend = LogMel(n_mels=n_mels)
        self.rnn = nn.LSTM(n_mels, hidden, num_layers=2, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, len(VOCAB))

    def forward(self, wav, frame_lengths):
        feats = self.frontend(self.resample(wav))
        packed = pack_padded_sequence(feats, frame_lengths, batch_first=True, enforce_sorted=False)
        h, _ = self.rnn(packed)
        h, _ = pad_packed_sequence(h, batch_first=True, total_length=feats.shape[1])
        return self.out(h).log_softmax(-1)


class ToneDigits(Dataset):
    def __init__(self, n, seed=0):
        self.rng = random.Random(seed)
        self.items = [self._make() for _ in range(n)]

    def _make(self):
        labels = [self.rng.randint(1, len(VOCAB) - 1) for _ in range(self.rng.randint(2, 5))]
        t = torch.arange(int(0.12 * 2 * SR)) / (2 * SR)
        segs = []
        for lab in labels:
            segs.append(0.5 * torch.sin(2 * math.pi * 400 * lab * t))
            segs.append(torch.zeros(int(0.04 * 2 * SR)))
        wav = torch.cat(segs) + 0.01 * torch.randn(sum(s.numel() for s in segs))
        return wav, torch.tensor(labels, dtype=torch.long)

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    wavs, labels = zip(*batch)
    wav_lens = torch.tensor([w.numel() for w in wavs])
    frame_lens = wav_lens // 2 // HOP + 1  # after decimation + centered STFT
    targets = torch.cat(labels)
    target_lens = torch.tensor([len(l) for l in labels], dtype=torch.long)
    return pad_sequence(wavs, batch_first=True), frame_lens, targets, target_lens


def greedy_decode(log_probs, lengths):
    best = log_probs.argmax(-1).cpu()
    out = []
    for seq, n in zip(best, lengths.tolist()):
        seq = torch.unique_consecutive(seq[:n])
        out.append("".join(VOCAB[i] for i in seq.tolist() if i != 0))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--no-cuda", action="store_true")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")

    model = CTCModel(input_sr=16000).to(device)
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    loader = DataLoader(ToneDigits(24), batch_size=8, shuffle=True, collate_fn=collate)

    for epoch in range(args.epochs):
        for wav, frame_lens, targets, target_lens in loader:
            wav = wav.to(device)
            log_probs = model(wav, frame_lens)  # frame_lens stay on the cpu for packing
            # CTCLoss wants (T, N, C); targets and lengths may stay on the cpu
            loss = ctc(log_probs.transpose(0, 1), targets, frame_lens, target_lens)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
        hyp = greedy_decode(log_probs, frame_lens)
        ref = ["".join(VOCAB[i] for i in targets[:target_lens[0]].tolist())]
        print(f"epoch {epoch}: ctc {loss.item():.3f} | ref {ref[0]} hyp {hyp[0]}")


if __name__ == "__main__":
    main()
