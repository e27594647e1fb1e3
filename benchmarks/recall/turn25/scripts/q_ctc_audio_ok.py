"""Toy keyword-spelling ASR: raw waveforms -> log-magnitude STFT front end (a
module, so it runs on the GPU with the model) -> BiGRU -> CTC over characters.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

VOCAB = ["<blank>", "a", "b", "c", "d"]
SR = 8000


class ToneWords(Dataset):
    """Each character is a 60 ms tone at its own frequency."""

    def __init__(self, n=128, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.items = []
        for _ in range(n):
            length = int(torch.randint(2, 5, (1,), generator=g))
            labels = torch.randint(1, len(VOCAB), (length,), generator=g)
            seg = int(0.06 * SR)
            t = torch.arange(seg) / SR
            wav = torch.cat([torch.sin(2 * torch.pi * (300 * int(c)) * t) for c in labels])
            self.items.append((wav + 0.05 * torch.randn(wav.shape, generator=g), labels))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    wavs, labels = zip(*batch)
    wav_lens = torch.tensor([len(w) for w in wavs])
    padded = nn.utils.rnn.pad_sequence(wavs, batch_first=True)
    targets = torch.cat(labels)
    target_lens = torch.tensor([len(l) for l in labels])
    return padded, wav_lens, targets, target_lens


class LogSpectrogram(nn.Module):
    def __init__(self, n_fft=256, hop=80):
        super().__init__()
        self.n_fft, self.hop = n_fft, hop
        self.register_buffer("window", torch.hann_window(n_fft), persistent=False)

    def forward(self, wav):
        spec = torch.stft(wav, self.n_fft, self.hop, window=self.window, return_complex=True)
        return (spec.abs() + 1e-6).log().transpose(1, 2)

    def frames(self, wav_lens):
        return wav_lens // self.hop + 1


class CTCModel(nn.Module):
    def __init__(self, n_fft=256, hidden=64):
        super().__init__()
        self.frontend = LogSpectrogram(n_fft)
        self.norm = nn.LayerNorm(n_fft // 2 + 1)
        self.rnn = nn.GRU(n_fft // 2 + 1, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, len(VOCAB))

    def forward(self, wav):
        feats = self.norm(self.frontend(wav))
        h, _ = self.rnn(feats)
        return self.out(h).log_softmax(-1)


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
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = ap.parse_args()
    device = torch.device(args.device)
    torch.manual_seed(0)

    loader = DataLoader(ToneWords(), batch_size=16, shuffle=True, collate_fn=collate)
    model = CTCModel().to(device)
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(args.epochs):
        for wav, wav_lens, targets, target_lens in loader:
            wav = wav.to(device)
            wav = wav.type(torch.float32)
            log_probs = model(wav)
            input_lens = model.frontend.frames(wav_lens)
            loss = ctc(log_probs.transpose(0, 1), targets.to(device), input_lens, target_lens)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: ctc {loss.item():.3f}", greedy_decode(log_probs, input_lens)[:3])


if __name__ == "__main__":
    main()
