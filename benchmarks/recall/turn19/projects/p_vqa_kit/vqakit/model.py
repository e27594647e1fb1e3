import torch
import torch.nn as nn


class PatchEncoder(nn.Module):
    def __init__(self, dim, patch=8, image_size=32):
        super().__init__()
        self.register_buffer("mean", torch.tensor([0.1, 0.1, 0.1]).view(1, 3, 1, 1))
        self.register_buffer("std", torch.tensor([0.3, 0.3, 0.3]).view(1, 3, 1, 1))
        self.proj = nn.Conv2d(3, dim, patch, patch)
        self.pos = nn.Parameter(torch.zeros(1, (image_size // patch) ** 2, dim))

    def forward(self, pixel_values):
        x = (pixel_values - self.mean) / self.std
        return self.proj(x).flatten(2).transpose(1, 2) + self.pos


class VQAModel(nn.Module):
    def __init__(self, vocab_size, num_answers, dim=64, heads=4, max_len=16):
        super().__init__()
        self.vision = PatchEncoder(dim)
        self.tok = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.pos = nn.Embedding(max_len, dim)
        self.text = nn.TransformerEncoder(nn.TransformerEncoderLayer(dim, heads, 2 * dim, batch_first=True), 1)
        self.cross = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.head = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, num_answers))

    def forward(self, pixel_values, input_ids, attention_mask):
        patches = self.vision(pixel_values)
        positions = torch.arange(input_ids.size(1), device=input_ids.device)
        words = self.text(self.tok(input_ids) + self.pos(positions), src_key_padding_mask=~attention_mask)
        fused, _ = self.cross(words, patches, patches)
        m = attention_mask.unsqueeze(-1).to(fused.dtype)
        return self.head((fused * m).sum(1) / m.sum(1).clamp(min=1.0))
