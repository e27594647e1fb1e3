"""Multi-resolution STFT loss for a tiny waveform generator (vocoder style); each resolution
keeps its analysis window as an attribute of the loss module, which train() moves with
.to(device).

Thread: https://github.com/mozilla/TTS/issues/619 (torch.stft fails with "Expected all tensors
to be on the same device": the window of TorchSTFT stays on the CPU when the loss is moved).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class STFTMagnitude(nn.Module):
    def __init__(self, n_fft, hop, win):
        super().__init__()
        self.n_fft, self.hop, self.win = n_fft, hop, win
        self.window = torch.hann_window(win)  # expect: DEV010

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
        loss = sc + mag
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: sc {sc.item():.3f} mag {mag.item():.3f}")


if __name__ == "__main__":
    train()
