"""Audio event tagger trained from a dataclass config (overridable from the
command line). Data loading is set up to work on laptops too: pinned memory
only with a GPU, worker count from the config.

    python p_dataclass_config_device.py --epochs 2 --batch_size 16
"""
import argparse
from dataclasses import asdict, dataclass, fields

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class TrainConfig:
    n_mels: int = 32
    frames: int = 50
    num_tags: int = 6
    hidden: int = 64
    epochs: int = 2
    batch_size: int = 32
    lr: float = 1e-3
    num_workers: int = 0
    device: str = "cuda:0"  # expect: DEV001
    seed: int = 0


def parse_config():
    cfg = TrainConfig()
    parser = argparse.ArgumentParser()
    for f in fields(cfg):
        parser.add_argument(f"--{f.name}", type=type(getattr(cfg, f.name)), default=getattr(cfg, f.name))
    return TrainConfig(**vars(parser.parse_args()))


class CRNNTagger(nn.Module):
    def __init__(self, cfg: TrainConfig):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(cfg.n_mels, cfg.hidden, 3, padding=1), nn.ReLU(), nn.BatchNorm1d(cfg.hidden))
        self.gru = nn.GRU(cfg.hidden, cfg.hidden, batch_first=True)
        self.out = nn.Linear(cfg.hidden, cfg.num_tags)

    def forward(self, mel):
        h, _ = self.gru(self.conv(mel).transpose(1, 2))
        return self.out(h).max(dim=1).values  # clip-level tags from frame-level scores


def make_loader(cfg, n, shuffle):
    g = torch.Generator().manual_seed(cfg.seed + n)
    mel = torch.randn(n, cfg.n_mels, cfg.frames, generator=g)
    tags = (torch.rand(n, cfg.num_tags, generator=g) < 0.3).float()
    return DataLoader(TensorDataset(mel, tags), batch_size=cfg.batch_size, shuffle=shuffle,
                      num_workers=cfg.num_workers, pin_memory=torch.cuda.is_available())


def main():
    cfg = parse_config()
    print(asdict(cfg))
    torch.manual_seed(cfg.seed)
    device = torch.device(cfg.device)

    train_loader = make_loader(cfg, 192, True)
    val_loader = make_loader(cfg, 64, False)
    model = CRNNTagger(cfg).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)

    for epoch in range(cfg.epochs):
        model.train()
        for mel, tags in train_loader:
            mel, tags = mel.to(device), tags.to(device)
            loss = F.binary_cross_entropy_with_logits(model(mel), tags)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            val = sum(F.binary_cross_entropy_with_logits(model(m.to(device)), t.to(device)).item()
                      for m, t in val_loader) / len(val_loader)
        print(f"epoch {epoch}: train {loss.item():.3f} val {val:.3f}")


if __name__ == "__main__":
    main()
