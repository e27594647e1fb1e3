"""Log-mel front end and the classifier built on it."""
import torch
import torch.nn as nn
import torchaudio


class LogMel(nn.Module):
    def __init__(self, sample_rate, n_fft, hop, n_mels):
        super().__init__()
        self.n_fft, self.hop = n_fft, hop
        self.window = torch.hann_window(n_fft)  # expect: DEV010
        fb = torchaudio.functional.melscale_fbanks(n_fft // 2 + 1, 0.0, sample_rate / 2, n_mels, sample_rate)
        self.register_buffer("fbanks", fb)

    def forward(self, wav):
        spec = torch.stft(wav, self.n_fft, self.hop, window=self.window, return_complex=True).abs().pow(2)
        return torch.log(spec.transpose(1, 2) @ self.fbanks + 1e-6).transpose(1, 2)


class KeywordNet(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.frontend = LogMel(cfg.sample_rate, cfg.n_fft, cfg.hop, cfg.n_mels)
        self.conv = nn.Sequential(nn.Conv1d(cfg.n_mels, 64, 3, padding=1), nn.BatchNorm1d(64), nn.ReLU(),
                                  nn.Conv1d(64, 64, 3, padding=1), nn.BatchNorm1d(64), nn.ReLU())
        self.fc = nn.Linear(64, cfg.classes)

    def forward(self, wav, frame_mask):
        h = self.conv(self.frontend(wav))
        h = h * frame_mask[:, None, : h.size(-1)]
        return self.fc(h.sum(-1) / frame_mask.sum(-1, keepdim=True).clamp(min=1))
