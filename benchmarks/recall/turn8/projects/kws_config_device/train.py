"""Keyword-spotting training entry point; the device comes from the config dataclass.

Thread: https://github.com/Tencent/NeuralNLP-NeuralClassifier/issues/21
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from config import KwsConfig
from model import KwsNet


def main():
    cfg = KwsConfig()
    model = KwsNet(cfg.n_mels, cfg.hidden, cfg.n_words).to(cfg.device)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    ds = TensorDataset(torch.randn(128, cfg.n_mels, 50), torch.randint(0, cfg.n_words, (128,)))
    for _ in range(cfg.epochs):
        for mel, word in DataLoader(ds, batch_size=cfg.batch_size, shuffle=True):
            mel, word = mel.to(cfg.device), word.to(cfg.device)
            loss = nn.functional.cross_entropy(model(mel), word)
            opt.zero_grad()
            loss.backward()
            opt.step()


if __name__ == "__main__":
    main()
