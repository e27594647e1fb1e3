"""Tiny CTC acoustic model: log-mel front end, bidirectional GRU, greedy decoding."""
import argparse

import numpy as np
import torch
import torch.nn as nn

VOCAB = ["<blank>", "a", "b", "c", "d", "e"]


def mel_filterbank(n_mels, n_fft, sr):
    n_freqs = n_fft // 2 + 1
    hz = lambda m: 700.0 * (10 ** (m / 2595.0) - 1)
    mel_max = 2595.0 * np.log10(1 + (sr / 2) / 700.0)
    edges = hz(np.linspace(0, mel_max, n_mels + 2))
    freqs = np.linspace(0, sr / 2, n_freqs)
    fb = np.zeros((n_mels, n_freqs), dtype=np.float32)
    for m in range(n_mels):
        lo, mid, hi = edges[m], edges[m + 1], edges[m + 2]
        up = (freqs - lo) / (mid - lo + 1e-9)
        down = (hi - freqs) / (hi - mid + 1e-9)
        fb[m] = np.clip(np.minimum(up, down), 0, None)
    return fb


class LogMel(nn.Module):
    def __init__(self, n_fft=128, hop=64, n_mels=20, sr=8000):
        super().__init__()
        self.n_fft, self.hop = n_fft, hop
        self.register_buffer("window", torch.hann_window(n_fft))
        self.fb = torch.from_numpy(mel_filterbank(n_mels, n_fft, sr))  # expect: DEV010

    def forward(self, wav):
        spec = torch.stft(wav, self.n_fft, self.hop, window=self.window, return_complex=True)
        power = spec.abs() ** 2
        mel = torch.matmul(self.fb, power)
        return torch.log(mel + 1e-6).transpose(1, 2)


class CTCModel(nn.Module):
    def __init__(self, n_mels=20, hidden=64, n_tokens=len(VOCAB)):
        super().__init__()
        self.frontend = LogMel(n_mels=n_mels)
        self.rnn = nn.GRU(n_mels, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, n_tokens)

    def forward(self, wav):
        feats = self.frontend(wav)
        h, _ = self.rnn(feats)
        return self.out(h).log_softmax(-1)


def greedy_decode(log_probs):
    best = log_probs.argmax(dim=-1).numpy()  # expect: DEV011
    texts = []
    for row in best:
        prev, chars = 0, []
        for idx in row:
            if idx != prev and idx != 0:
                chars.append(VOCAB[idx])
            prev = idx
        texts.append("".join(chars))
    return texts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = ap.parse_args()
    device = torch.device(args.device)

    model = CTCModel().to(device)
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    B = 4
    for step in range(args.steps):
        wav = torch.randn(B, 4000).to(device)
        targets = torch.randint(1, len(VOCAB), (B, 6)).to(device)
        target_lengths = torch.tensor([6, 5, 4, 6])
        log_probs = model(wav)
        input_lengths = torch.full((B,), log_probs.size(1), dtype=torch.long)
        loss = ctc(log_probs.transpose(0, 1), targets, input_lengths, target_lengths)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, round(loss.item(), 3))

    model.eval()
    with torch.no_grad():
        print(greedy_decode(model(torch.randn(2, 4000, device=device))))


if __name__ == "__main__":
    main()
