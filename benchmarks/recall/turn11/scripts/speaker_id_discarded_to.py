"""Speaker identification from raw 1-second waveforms (8 kHz, 8 speakers) with a strided
Conv1d front end, trained with label smoothing.

Thread: https://github.com/ddemszky/conversational-uptake/pull/4 (Fixed Error of Different Devices
Due to Tensor.to(device): the tensor returned by .to() was not kept).
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class RawSpeakerNet(nn.Module):
    def __init__(self, n_speakers=8):
        super().__init__()
        self.frontend = nn.Sequential(
            nn.Conv1d(1, 32, 80, stride=16), nn.BatchNorm1d(32), nn.ReLU(),
            nn.Conv1d(32, 64, 5, stride=4), nn.BatchNorm1d(64), nn.ReLU(),
            nn.Conv1d(64, 64, 5, stride=4), nn.ReLU(), nn.AdaptiveAvgPool1d(1))
        self.classifier = nn.Linear(64, n_speakers)

    def forward(self, wav):
        return self.classifier(self.frontend(wav.unsqueeze(1)).flatten(1))


def synth_waveforms(n=320, sr=8000):
    spk = torch.randint(0, 8, (n,))
    t = torch.arange(sr) / sr
    pitch = 100 + 20 * spk.float()
    wav = torch.sin(2 * torch.pi * pitch[:, None] * t[None, :]) + 0.3 * torch.randn(n, sr)
    return wav, spk


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = RawSpeakerNet().to(device)
    criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = DataLoader(TensorDataset(*synth_waveforms()), batch_size=32, shuffle=True)
    for epoch in range(2):
        model.train()
        for wav, spk in loader:
            wav.to(device)  # expect: DEV005
            spk.to(device)  # expect: DEV005
            logits = model(wav)  # also: DEV002
            loss = criterion(logits, spk)  # also: DEV004
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: {loss.item():.3f}")


if __name__ == "__main__":
    main()
