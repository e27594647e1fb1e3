"""Conv + GRU CTC recognizer that computes log-mel features on the model's device.

Correct look-alike, written from pytorch "Calling MelSpectrogram from torchaudio.transforms on
a cuda-tensor fails", "stft does not consistently check window device", ChatTTS "stft input
and window must be on the same device" and icefall "Fixing torch.ctc err": the STFT window and
the mel filterbank are registered buffers of the front end (so model.to moves them), the
lengths for pack_padded_sequence and CTCLoss stay on the CPU, each batch is moved inside the
loop, and decoding copies to the CPU first.
"""
import math

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

SR, N_FFT, HOP, N_MELS, VOCAB = 8000, 256, 80, 32, 8


def mel_filterbank(n_freqs, n_mels, sr):
    mel = lambda f: 2595 * math.log10(1 + f / 700)
    inv = lambda m: 700 * (10 ** (m / 2595) - 1)
    pts = torch.tensor([inv(m) for m in torch.linspace(mel(0), mel(sr / 2), n_mels + 2).tolist()])
    freqs = torch.linspace(0, sr / 2, n_freqs)
    lo, mid, hi = pts[:-2, None], pts[1:-1, None], pts[2:, None]
    return torch.clamp(torch.minimum((freqs - lo) / (mid - lo), (hi - freqs) / (hi - mid)), min=0)


class LogMel(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("window", torch.hann_window(N_FFT))
        self.register_buffer("fbank", mel_filterbank(N_FFT // 2 + 1, N_MELS, SR))

    def forward(self, wav):
        spec = torch.stft(wav, N_FFT, HOP, window=self.window, return_complex=True).abs() ** 2
        return torch.log(self.fbank @ spec + 1e-6).transpose(1, 2)   # (B, frames, mels)


class Recognizer(nn.Module):
    def __init__(self, hidden=96):
        super().__init__()
        self.frontend = LogMel()
        self.rnn = nn.GRU(N_MELS, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, VOCAB)

    def forward(self, wav, frame_lens):
        feats = self.frontend(wav)
        packed = pack_padded_sequence(feats, frame_lens, batch_first=True, enforce_sorted=False)
        h, _ = pad_packed_sequence(self.rnn(packed)[0], batch_first=True)
        return self.out(h).log_softmax(-1)


def synth_batch(bsz, gen):
    """Each label 1..7 is a 0.1 s tone at 300*label Hz; label sequences have 2-4 symbols."""
    wavs, targets, tlens = [], [], []
    for _ in range(bsz):
        labels = torch.randint(1, VOCAB, (int(torch.randint(2, 5, (1,), generator=gen)),), generator=gen)
        t = torch.arange(int(0.1 * SR)) / SR
        wavs.append(torch.cat([torch.sin(2 * math.pi * 300 * int(l) * t) for l in labels]))
        targets.append(labels)
        tlens.append(len(labels))
    samples = torch.tensor([len(w) for w in wavs])
    wav = nn.utils.rnn.pad_sequence(wavs, batch_first=True)
    frame_lens = samples // HOP + 1
    return wav, frame_lens, torch.cat(targets), torch.tensor(tlens)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    gen = torch.Generator().manual_seed(0)
    model = Recognizer().to(device)
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)

    for step in range(150):
        wav, frame_lens, targets, target_lens = synth_batch(16, gen)
        log_probs = model(wav.to(device), frame_lens)
        loss = ctc(log_probs.transpose(0, 1), targets.to(device), frame_lens, target_lens)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 50 == 0:
            print(f"step {step} ctc {loss.item():.3f}")

    model.eval()
    wav, frame_lens, targets, target_lens = synth_batch(4, gen)
    with torch.no_grad():
        best = model(wav.to(device), frame_lens).argmax(-1).cpu()
    for hyp, n, ref in zip(best, frame_lens, torch.split(targets, target_lens.tolist())):
        collapsed = [int(s) for i, s in enumerate(hyp[:n]) if s != 0 and (i == 0 or s != hyp[i - 1])]
        print("ref", ref.tolist(), "hyp", collapsed)


if __name__ == "__main__":
    main()
