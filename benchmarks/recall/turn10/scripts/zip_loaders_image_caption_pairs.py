"""Contrastive image/caption pre-training from two pre-extracted shards read in the same order: an
image-feature loader and a caption-token loader are zipped, and a CLIP-style symmetric loss is
computed over the in-batch similarities.

Thread: https://github.com/LiheYoung/UniMatch/issues/120 (training over zip() of two loaders).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class ImageTower(nn.Module):
    def __init__(self, d_in=128, d=64):
        super().__init__()
        self.proj = nn.Sequential(nn.Linear(d_in, 128), nn.GELU(), nn.Linear(128, d))

    def forward(self, feats):
        return F.normalize(self.proj(feats), dim=-1)


class TextTower(nn.Module):
    def __init__(self, vocab=500, d=64):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, 128, mode="mean")
        self.proj = nn.Linear(128, d)

    def forward(self, tokens):
        return F.normalize(self.proj(self.emb(tokens)), dim=-1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    n = 512
    image_feats = torch.randn(n, 128)
    captions = torch.randint(0, 500, (n, 12))
    image_loader = DataLoader(TensorDataset(image_feats, torch.arange(n)), batch_size=64)
    caption_loader = DataLoader(TensorDataset(captions), batch_size=64)
    img_tower, txt_tower = ImageTower().to(device), TextTower().to(device)
    log_scale = nn.Parameter(torch.tensor(2.0, device=device))
    opt = torch.optim.AdamW([*img_tower.parameters(), *txt_tower.parameters(), log_scale], lr=1e-3)
    for epoch in range(3):
        for (feats, _), (tokens,) in zip(image_loader, caption_loader):
            feats = feats.to(device)
            zi = img_tower(feats)
            zt = txt_tower(tokens)  # expect: DEV002
            logits = log_scale.exp() * zi @ zt.T
            labels = torch.arange(len(feats), device=device)
            loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.T, labels)) / 2
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
