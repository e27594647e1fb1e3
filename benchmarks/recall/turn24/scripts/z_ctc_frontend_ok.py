"""CTC acoustic model: log-mel front end with buffers, packed BiLSTM, lengths kept on the CPU."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence


def mel_fb(n_freq, n_mels):
    centers = torch.linspace(0, n_freq - 1, n_mels + 2)
    k = torch.arange(n_freq).float()
    up = (k[None] - centers[:-2, None]) / (centers[1:-1, None] - centers[:-2, None])
    down = (centers[2:, None] - k[None]) / (centers[2:, None] - centers[1:-1, None])
    return torch.clamp(torch.minimum(up, down), min=0)


class LogMel(nn.Module):
    def __init__(self, n_fft=128, hop=64, n_mels=16):
        super().__init__()
        self.n_fft, self.hop = n_fft, hop
        self.register_buffer("window", torch.hann_window(n_fft))
        self.register_buffer("fb", mel_fb(n_fft // 2 + 1, n_mels))

    def forward(self, wav):
        spec = torch.stft(wav, self.n_fft, self.hop, window=self.window, return_complex=True).abs() ** 2
        return torch.log(self.fb @ spec + 1e-6).transpose(1, 2)


class CTCModel(nn.Module):
    def __init__(self, n_tokens, n_mels=16, hidden=32):
        super().__init__()
        self.frontend = LogMel(n_mels=n_mels)
        self.rnn = nn.LSTM(n_mels, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, n_tokens)

    def forward(self, wav, wav_lens):
        feats = self.frontend(wav)
        frame_lens = wav_lens // self.frontend.hop + 1
        packed = pack_padded_sequence(feats, frame_lens, batch_first=True, enforce_sorted=False)
        out, _ = self.rnn(packed)
        out, _ = pad_packed_sequence(out, batch_first=True, total_length=feats.size(1))
        return self.out(out).log_softmax(-1), frame_lens


def batch(n=6, sr=4000):
    lens = torch.randint(sr // 2, sr, (n,))
    wavs = [torch.sin(2 * math.pi * 440 * torch.arange(int(l)) / sr) + 0.1 * torch.randn(int(l)) for l in lens]
    targets = [torch.randint(1, 6, (int(torch.randint(2, 5, (1,))),)) for _ in range(n)]
    return pad_sequence(wavs, batch_first=True), lens, torch.cat(targets), torch.tensor([len(t) for t in targets])


def greedy_decode(log_probs, lens):
    best = log_probs.argmax(-1).cpu()
    hyps = []
    for row, L in zip(best, lens.tolist()):
        toks = torch.unique_consecutive(row[:L])
        hyps.append([t for t in toks.tolist() if t != 0])
    return hyps


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = CTCModel(n_tokens=6).to(device)
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    wav, wav_lens, targets, target_lens = batch()
    wav = wav.to(device)
    print("peek", tuple(wav.shape), wav.device, wav_lens.tolist())
    for step in range(15):
        wav, wav_lens, targets, target_lens = batch()
        log_probs, frame_lens = model(wav.to(device), wav_lens)
        loss = ctc(log_probs.transpose(0, 1), targets.to(device), frame_lens, target_lens)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("ctc loss", round(loss.item(), 3))
    print(greedy_decode(log_probs.detach(), frame_lens)[:2])


if __name__ == "__main__":
    main()
