"""Image captioning with a frozen vision tower and a small transformer decoder.

Only the bridge and the decoder are trained; the tower is plugged in after the
captioner is built so that we can swap checkpoints without touching the model code.
"""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

PAD, BOS, EOS = 0, 1, 2


@dataclass
class Config:
    vocab_size: int = 40
    max_len: int = 12
    vis_dim: int = 48
    d_model: int = 64
    n_heads: int = 4
    n_layers: int = 2
    batch_size: int = 8
    epochs: int = 2
    lr: float = 1e-3
    device: str = "cuda" if torch.cuda.is_available() else "cpu"


class VisionTower(nn.Module):
    """Stand-in for a pretrained ViT: returns a grid of patch features."""

    def __init__(self, dim):
        super().__init__()
        self.patchify = nn.Conv2d(3, dim, kernel_size=8, stride=8)
        self.norm = nn.LayerNorm(dim)

    def forward(self, images):
        x = self.patchify(images)              # B, D, H/8, W/8
        x = x.flatten(2).transpose(1, 2)       # B, N, D
        return self.norm(x)


def load_vision_tower(cfg):
    tower = VisionTower(cfg.vis_dim)
    # weights would come from the pretrained checkpoint here
    tower.requires_grad_(False)
    tower.eval()
    return tower


class Captioner(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.bridge = nn.Linear(cfg.vis_dim, cfg.d_model)
        self.embed = nn.Embedding(cfg.vocab_size, cfg.d_model, padding_idx=PAD)
        self.pos = nn.Embedding(cfg.max_len + 1, cfg.d_model)
        layer = nn.TransformerDecoderLayer(cfg.d_model, cfg.n_heads, 2 * cfg.d_model, batch_first=True)
        self.decoder = nn.TransformerDecoder(layer, cfg.n_layers)
        self.lm_head = nn.Linear(cfg.d_model, cfg.vocab_size)

    def forward(self, images, tokens):
        with torch.no_grad():
            feats = self.vision(images)
        memory = self.bridge(feats)
        T = tokens.size(1)
        positions = torch.arange(T, device=tokens.device)
        x = self.embed(tokens) + self.pos(positions)
        causal = nn.Transformer.generate_square_subsequent_mask(T, device=tokens.device)
        h = self.decoder(x, memory, tgt_mask=causal, tgt_key_padding_mask=tokens.eq(PAD))
        return self.lm_head(h)


def make_data(cfg, n=64):
    images = torch.rand(n, 3, 32, 32)
    lengths = torch.randint(4, cfg.max_len - 1, (n,))
    caps = torch.full((n, cfg.max_len), PAD, dtype=torch.long)
    for i, L in enumerate(lengths.tolist()):
        caps[i, 0] = BOS
        caps[i, 1:L] = torch.randint(3, cfg.vocab_size, (L - 1,))
        caps[i, L] = EOS
    return TensorDataset(images, caps)


@torch.no_grad()
def greedy_caption(model, images, max_len=12):
    model.eval()
    seq = torch.full((images.size(0), 1), BOS, dtype=torch.long)  # expect: DEV006
    for _ in range(max_len - 1):
        logits = model(images, seq)
        nxt = logits[:, -1].argmax(-1, keepdim=True)
        seq = torch.cat([seq, nxt], dim=1)
        if (nxt == EOS).all():
            break
    return seq


def main():
    cfg = Config()
    loader = DataLoader(make_data(cfg), batch_size=cfg.batch_size, shuffle=True)

    model = Captioner(cfg).to(cfg.device)
    model.vision = load_vision_tower(cfg)  # expect: DEV015
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=cfg.lr)

    for epoch in range(cfg.epochs):
        model.train()
        model.vision.eval()
        total = 0.0
        for images, captions in loader:
            images = images.to(cfg.device)
            captions = captions.to(cfg.device)
            # teacher forcing: feed the gold prefix, predict the next token
            logits = model(images, captions[:, :-1])
            loss = F.cross_entropy(logits.reshape(-1, cfg.vocab_size), captions[:, 1:].reshape(-1), ignore_index=PAD)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total / len(loader):.3f}")

    images, _ = next(iter(loader))
    print(greedy_caption(model, images.to(cfg.device), cfg.max_len)[:2].tolist())


if __name__ == "__main__":
    main()
