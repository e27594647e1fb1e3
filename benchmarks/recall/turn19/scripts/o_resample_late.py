"""Fine-tune an 8 kHz speech-command classifier on 16 kHz recordings.

The pretrained model expects 8 kHz input, so when the data rate differs we put an
anti-aliased decimator in front of it.
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Decimate(nn.Module):
    """Windowed-sinc low-pass + integer decimation (orig_sr must be a multiple of new_sr)."""

    def __init__(self, orig_sr, new_sr, taps=63):
        super().__init__()
        assert orig_sr % new_sr == 0
        self.factor = orig_sr // new_sr
        cutoff = 0.5 / self.factor
        n = torch.arange(taps, dtype=torch.float32) - (taps - 1) / 2
        h = 2 * cutoff * torch.sinc(2 * cutoff * n) * torch.hamming_window(taps, periodic=False)
        self.register_buffer("kernel", (h / h.sum()).view(1, 1, -1))
        self.pad = taps // 2

    def forward(self, wav):
        x = F.conv1d(wav.unsqueeze(1), self.kernel, padding=self.pad)
        return x[:, 0, :: self.factor]


class CommandNet(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(1, 16, 80, stride=4), nn.BatchNorm1d(16), nn.ReLU(), nn.MaxPool1d(4),
            nn.Conv1d(16, 32, 3), nn.BatchNorm1d(32), nn.ReLU(), nn.MaxPool1d(4),
        )
        self.classifier = nn.Linear(32, n_classes)

    def forward(self, wav):
        if getattr(self, "resample", None) is not None:
            wav = self.resample(wav)
        x = self.features(wav.unsqueeze(1))
        return self.classifier(x.mean(-1))


def synthetic_commands(n, sr, n_classes=5, seconds=0.5, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(int(sr * seconds)) / sr
    y = torch.randint(0, n_classes, (n,), generator=g)
    f0 = 200.0 + 150.0 * y.float()
    x = torch.sin(2 * math.pi * f0[:, None] * t[None]) * torch.hann_window(t.numel())
    x = x + 0.02 * torch.randn(x.shape, generator=g)
    return TensorDataset(x, y)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data-sr", type=int, default=16000)
    ap.add_argument("--model-sr", type=int, default=8000)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--pretrained", default=None)
    args = ap.parse_args()

    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    model = CommandNet()
    if args.pretrained:
        model.load_state_dict(torch.load(args.pretrained, map_location="cpu"))
    model = model.to(device)
    if args.data_sr != args.model_sr:
        model.resample = Decimate(args.data_sr, args.model_sr)  # expect: DEV015

    loader = DataLoader(synthetic_commands(48, args.data_sr), batch_size=16, shuffle=True)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    # quick shape check before training
    wav, label = next(iter(loader))
    wav = wav.to(device)  # expect: DEV003
    with torch.no_grad():
        print("logits:", tuple(model(wav).shape))

    for epoch in range(args.epochs):
        model.train()
        for wav, label in loader:
            label = label.to(device)
            logits = model(wav)  # also: DEV002
            loss = F.cross_entropy(logits, label)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
