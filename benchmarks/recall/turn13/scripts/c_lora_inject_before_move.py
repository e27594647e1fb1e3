"""LoRA adapters on the feed-forward layers of a small encoder, fine-tuned for classification.

Correct look-alike, written from the diffusers thread "LORA error when running
train_text_to_image_lora.py" (fix: "first add LORA to unet and then send them together to
GPU") and peft "RuntimeError: ... mat2 in method wrapper_CUDA_mm": the adapters and the new
classification head are attached before model.to(device), the checkpoint is loaded with
map_location, and labels travel with the inputs.
"""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class LoRA(nn.Module):
    def __init__(self, base: nn.Linear, r=4, alpha=8, dropout=0.05):
        super().__init__()
        self.base = base
        self.A = nn.Linear(base.in_features, r, bias=False)
        self.B = nn.Linear(r, base.out_features, bias=False)
        nn.init.zeros_(self.B.weight)
        self.drop = nn.Dropout(dropout)
        self.scale = alpha / r

    def forward(self, x):
        return self.base(x) + self.B(self.A(self.drop(x))) * self.scale

    @torch.no_grad()
    def merged(self):
        self.base.weight += (self.B.weight @ self.A.weight) * self.scale
        return self.base


class Encoder(nn.Module):
    def __init__(self, vocab=200, d=64, layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        layer = nn.TransformerEncoderLayer(d, 4, 4 * d, batch_first=True)
        self.layers = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)

    def forward(self, ids):
        return self.layers(self.emb(ids)).mean(dim=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pretrained", default="encoder_pretrained.pt")
    ap.add_argument("--epochs", type=int, default=3)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)

    encoder = Encoder()
    if os.path.exists(args.pretrained):
        encoder.load_state_dict(torch.load(args.pretrained, map_location=device))
    encoder.requires_grad_(False)
    for layer in encoder.layers.layers:
        layer.linear1 = LoRA(layer.linear1)
        layer.linear2 = LoRA(layer.linear2)
    model = nn.Sequential(encoder, nn.Linear(64, 2))
    model.to(device)

    ids = torch.randint(0, 200, (512, 16))
    labels = (ids[:, :4] < 100).sum(dim=1).ge(2).long()
    loader = DataLoader(TensorDataset(ids, labels), batch_size=32, shuffle=True)
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=3e-3)

    for epoch in range(args.epochs):
        model.train()
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")

    for layer in encoder.layers.layers:
        layer.linear1 = layer.linear1.merged()
        layer.linear2 = layer.linear2.merged()
    torch.save({k: v.cpu() for k, v in model.state_dict().items()}, "classifier_merged.pt")


if __name__ == "__main__":
    main()
