"""Train the keyword-spotting model on variable-length clips."""
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from config import Config, get_device
from features import KeywordNet
from utils import frame_mask, frames_for, pad_batch


def synthetic_clips(n, cfg):
    g = torch.Generator().manual_seed(0)
    clips = []
    for i in range(n):
        length = int(torch.randint(cfg.sample_rate // 2, cfg.sample_rate, (1,), generator=g))
        clips.append((torch.randn(length, generator=g) * 0.1, i % cfg.classes))
    return clips


def main():
    cfg = Config()
    device = get_device()
    loader = DataLoader(synthetic_clips(512, cfg), batch_size=cfg.batch_size, shuffle=True, collate_fn=pad_batch)
    model = KeywordNet(cfg).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        for wav, lengths, labels in loader:
            wav, labels = wav.to(device), labels.to(device)
            mask = frame_mask(lengths, cfg.hop, frames_for(wav.size(1), cfg.hop))
            loss = F.cross_entropy(model(wav, mask), labels)  # also: DEV002
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
