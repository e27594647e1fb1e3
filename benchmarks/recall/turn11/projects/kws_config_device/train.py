"""Train and evaluate the keyword spotter: python train.py

Synthetic one-second clips: each keyword is a tone at its own pitch plus noise.
"""
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from config import TrainConfig
from model import KWSNet
from utils import accuracy, log_confusion


def synth_clips(cfg, n):
    labels = torch.randint(0, len(cfg.keywords), (n,))
    t = torch.arange(cfg.sample_rate) / cfg.sample_rate
    pitch = 200 + 80 * labels.float()
    wav = torch.sin(2 * torch.pi * pitch[:, None] * t[None, :]) + 0.5 * torch.randn(n, cfg.sample_rate)
    return wav, labels


def main():
    cfg = TrainConfig()
    device = torch.device(cfg.device)
    model = KWSNet(cfg.n_fft, cfg.n_mels, len(cfg.keywords)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    train = DataLoader(TensorDataset(*synth_clips(cfg, 256)), batch_size=cfg.batch_size, shuffle=True)
    val = DataLoader(TensorDataset(*synth_clips(cfg, 96)), batch_size=cfg.batch_size)
    for epoch in range(cfg.epochs):
        model.train()
        for wav, y in train:
            wav, y = wav.to(device), y.to(device)
            loss = F.cross_entropy(model(wav), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: {loss.item():.3f}")

    model.eval()
    preds, targets = [], []
    with torch.no_grad():
        for wav, y in val:
            wav, y = wav.to(device), y.to(device)
            preds.append(model(wav).argmax(1))
            targets.append(y)
    preds, targets = torch.cat(preds), torch.cat(targets)
    print(f"val accuracy {accuracy(preds, targets):.3f}")
    log_confusion(preds, targets, cfg.keywords)


if __name__ == "__main__":
    main()
