"""Correct look-alike: the zipped image-feature and caption loaders both have their batches moved
before the towers see them, the in-batch labels are made on the device, and a fixed probe batch
moved once before the loop (its names are not rebound by the loop) is scored after each epoch.

Thread: https://github.com/FlyreelAI/sesemi/issues/4 (iterating two loaders of different
lengths together).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def tower(d_in, d=64):
    return nn.Sequential(nn.Linear(d_in, 128), nn.GELU(), nn.Linear(128, d))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    n = 512
    image_feats, caption_feats = torch.randn(n, 128), torch.randn(n, 96)
    image_loader = DataLoader(TensorDataset(image_feats), batch_size=64)
    caption_loader = DataLoader(TensorDataset(caption_feats), batch_size=64)
    img_tower, txt_tower = tower(128).to(device), tower(96).to(device)
    opt = torch.optim.AdamW([*img_tower.parameters(), *txt_tower.parameters()], lr=1e-3)
    probe_img, probe_txt = image_feats[:32].to(device), caption_feats[:32].to(device)
    for epoch in range(3):
        for (imgs,), (caps,) in zip(image_loader, caption_loader):
            imgs, caps = imgs.to(device), caps.to(device)
            zi, zt = F.normalize(img_tower(imgs), dim=-1), F.normalize(txt_tower(caps), dim=-1)
            logits = 20.0 * zi @ zt.T
            labels = torch.arange(len(imgs), device=device)
            loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.T, labels)) / 2
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            sims = F.normalize(img_tower(probe_img), dim=-1) @ F.normalize(txt_tower(probe_txt), dim=-1).T
            print(epoch, (sims.argmax(1) == torch.arange(32, device=device)).float().mean().item())


if __name__ == "__main__":
    main()
