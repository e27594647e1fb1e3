"""Image-to-text retrieval evaluation for a dual encoder: embeddings are computed batch by batch,
then recall@k is read off NumPy's argsort of the similarity matrix."""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class DualEncoder(nn.Module):
    def __init__(self, d_img=512, d_txt=300, d=128):
        super().__init__()
        self.img = nn.Sequential(nn.Linear(d_img, 256), nn.ReLU(), nn.Linear(256, d))
        self.txt = nn.Sequential(nn.Linear(d_txt, 256), nn.ReLU(), nn.Linear(256, d))

    def forward(self, img, txt):
        return F.normalize(self.img(img), dim=-1), F.normalize(self.txt(txt), dim=-1)


@torch.no_grad()
def embed(model, loader, device):
    img_embs, txt_embs = [], []
    for img, txt in loader:
        zi, zt = model(img.to(device), txt.to(device))
        img_embs.append(zi)
        txt_embs.append(zt)
    return torch.cat(img_embs), torch.cat(txt_embs)


def recall_at(sims, ks=(1, 5, 10)):
    ranking = np.argsort(-np.array(sims), axis=1)  # expect: DEV011
    gt = np.arange(sims.shape[0])[:, None]
    return {k: float((ranking[:, :k] == gt).any(1).mean()) for k in ks}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ckpt", default=None)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = DualEncoder().to(device).eval()
    if args.ckpt:
        model.load_state_dict(torch.load(args.ckpt, map_location=device))
    feats = TensorDataset(torch.randn(1000, 512), torch.randn(1000, 300))
    zi, zt = embed(model, DataLoader(feats, batch_size=200), device)
    sims = zi @ zt.T
    print(recall_at(sims))


if __name__ == "__main__":
    main()
