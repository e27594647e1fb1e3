"""Look-alike of tts_stft_loss_window_attr.py: the analysis windows are registered buffers of the
loss module (they move with criterion.to(device)), and the optional mel projection builds its
window on the input's device.

Thread: https://github.com/mozilla/TTS/issues/619 (the fix: make TorchSTFT an nn.Module so that
.cuda() moves its window).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class STFTMagnitude(nn.Module):
    def __init__(self, n_fft, hop, win):
        super().__init__()
        self.n_fft, self.hop, self.win = n_fft, hop, win
        self.register_buffer("window", torch.hann_window(win), persistent=False)

    def forward(self, wav):
        spec = torch.stft(wav, self.n_fft, self.hop, self.win, window=self.window,
                          return_complex=True)
        return spec.abs().clamp_min(1e-7)


class MultiResolutionSTFTLoss(nn.Module):
    def __init__(self, resolutions=((512, 128, 512), (256, 64, 256), (128, 32, 128))):
        super().__init__()
        self.stfts = nn.ModuleList(STFTMagnitude(*r) for r in resolutions)

    def forward(self, fake, real):
        sc, mag = 0.0, 0.0
        for stft in self.stfts:
            f, r = stft(fake), stft(real)
            sc = sc + torch.norm(r - f, p="fro") / torch.norm(r, p="fro")
            mag = mag + F.l1_loss(f.log(), r.log())
        return sc / len(self.stfts), mag / len(self.stfts)


def frame_energy(wav, n_fft=256):
    window = torch.hann_window(n_fft, device=wav.device)
    spec = torch.stft(wav, n_fft, n_fft // 4, window=window, return_complex=True)
    return spec.abs().pow(2).sum(1)


class Generator(nn.Module):
    def __init__(self, n_mels=20, hop=64):
        super().__init__()
        self.up = nn.ConvTranspose1d(n_mels, 16, kernel_size=hop * 2, stride=hop, padding=hop // 2)
        self.post = nn.Conv1d(16, 1, 7, padding=3)

    def forward(self, mel):
        return torch.tanh(self.post(F.leaky_relu(self.up(mel), 0.2))).squeeze(1)


def train(steps=5):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    gen = Generator().to(device)
    criterion = MultiResolutionSTFTLoss().to(device)
    opt = torch.optim.AdamW(gen.parameters(), lr=2e-4, betas=(0.8, 0.99))
    for step in range(steps):
        mel = torch.randn(4, 20, 32, device=device)
        real = torch.randn(4, 32 * 64, device=device).clamp(-1, 1)
        fake = gen(mel)[:, : real.size(1)]
        sc, mag = criterion(fake, real)
        energy = F.l1_loss(frame_energy(fake).log1p(), frame_energy(real).log1p())
        loss = sc + mag + 0.1 * energy
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: {loss.item():.3f}")


if __name__ == "__main__":
    train()
