"""CLIP-style contrastive pretraining, projection heads in an nn.ModuleDict and the
targets of the symmetric cross-entropy made on the logits' device."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class PairDataset(Dataset):
    def __init__(self, n=64, vocab=100, seq=12):
        g = torch.Generator().manual_seed(0)
        self.images = torch.rand(n, 3, 16, 16, generator=g)
        self.tokens = torch.randint(1, vocab, (n, seq), generator=g)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return {"pixel_values": self.images[i], "input_ids": self.tokens[i]}


class DualEncoder(nn.Module):
    def __init__(self, vocab=100, width=64, embed_dim=32):
        super().__init__()
        self.image_encoder = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                                           nn.Flatten(), nn.Linear(16, width))
        self.token_embedding = nn.Embedding(vocab, width)
        self.text_encoder = nn.GRU(width, width, batch_first=True)
        self.projections = nn.ModuleDict({
            "image": nn.Linear(width, embed_dim, bias=False),
            "text": nn.Linear(width, embed_dim, bias=False),
        })
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1 / 0.07)))

    def encode_image(self, pixel_values):
        return F.normalize(self.projections["image"](self.image_encoder(pixel_values)), dim=-1)

    def encode_text(self, input_ids):
        _, h = self.text_encoder(self.token_embedding(input_ids))
        return F.normalize(self.projections["text"](h[-1]), dim=-1)

    def forward(self, pixel_values, input_ids):
        img, txt = self.encode_image(pixel_values), self.encode_text(input_ids)
        logits_per_image = self.logit_scale.exp().clamp(max=100) * img @ txt.t()
        return logits_per_image, logits_per_image.t()


def clip_loss(logits_per_image, logits_per_text):
    labels = torch.arange(logits_per_image.shape[0], device=logits_per_image.device)
    return (F.cross_entropy(logits_per_image, labels) + F.cross_entropy(logits_per_text, labels)) / 2


def main():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = DualEncoder().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.1)
    loader = DataLoader(PairDataset(), batch_size=16, shuffle=True)
    for epoch in range(2):
        for batch in loader:
            batch = {k: v.to(device) for k, v in batch.items()}
            loss = clip_loss(*model(**batch))
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f} scale {model.logit_scale.exp().item():.2f}")


if __name__ == "__main__":
    main()
