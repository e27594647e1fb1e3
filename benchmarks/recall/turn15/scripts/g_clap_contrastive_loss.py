"""Audio-text contrastive pre-training (CLAP-like) with a learnable temperature held by the loss."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


@dataclass
class Config:
    n_mels: int = 32
    frames: int = 50
    vocab: int = 100
    seq_len: int = 10
    dim: int = 64
    batch_size: int = 16
    epochs: int = 2
    lr: float = 5e-4
    init_temperature: float = 0.07


class PairedClips(Dataset):
    def __init__(self, cfg, n=80):
        self.labels = torch.randint(0, 8, (n,))
        self.mels = torch.randn(n, cfg.frames, cfg.n_mels) + self.labels[:, None, None] * 0.3
        self.tokens = (self.labels[:, None] * 10 + torch.randint(0, 10, (n, cfg.seq_len))) % cfg.vocab

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.mels[i], self.tokens[i]


class AudioTower(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(cfg.n_mels, cfg.dim, 5, padding=2), nn.GELU(),
                                  nn.Conv1d(cfg.dim, cfg.dim, 5, padding=2), nn.GELU())

    def forward(self, mel):
        return self.conv(mel.transpose(1, 2)).mean(-1)


class TextTower(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.emb = nn.Embedding(cfg.vocab, cfg.dim)
        self.pos = nn.Parameter(torch.zeros(cfg.seq_len, cfg.dim))
        self.layer = nn.TransformerEncoderLayer(cfg.dim, 4, 2 * cfg.dim, batch_first=True)

    def forward(self, tokens):
        return self.layer(self.emb(tokens) + self.pos).mean(1)


class ClipLoss(nn.Module):
    def __init__(self, init_temperature):
        super().__init__()
        self.logit_scale = nn.Parameter(torch.log(torch.tensor(1.0 / init_temperature)))

    def forward(self, a, t):
        a, t = F.normalize(a, dim=-1), F.normalize(t, dim=-1)
        logits = self.logit_scale.exp().clamp(max=100) * a @ t.T
        labels = torch.arange(a.size(0), device=a.device)
        return 0.5 * (F.cross_entropy(logits, labels) + F.cross_entropy(logits.T, labels))


def main(cfg=Config()):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loader = DataLoader(PairedClips(cfg), batch_size=cfg.batch_size, shuffle=True, drop_last=True)
    audio, text = AudioTower(cfg).to(device), TextTower(cfg).to(device)
    criterion = ClipLoss(cfg.init_temperature).to(device)
    params = list(audio.parameters()) + list(text.parameters()) + list(criterion.parameters())
    opt = torch.optim.AdamW(params, lr=cfg.lr)

    for epoch in range(cfg.epochs):
        for mel, tokens in loader:
            mel, tokens = mel.to(device), tokens.to(device)
            loss = criterion(audio(mel), text(tokens))
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.3f} T={1 / criterion.logit_scale.exp().item():.4f}")


if __name__ == "__main__":
    main()
