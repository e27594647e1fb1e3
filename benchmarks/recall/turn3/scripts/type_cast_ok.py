"""Dtype casts that keep the device: .type(torch.float32), .type_as(x), .bool(), .float(), .to(dtype)."""
import torch
import torch.nn as nn


class MaskedPool(nn.Module):
    def __init__(self, vocab=1000, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)

    def forward(self, ids):
        h = self.emb(ids)
        mask = (ids != 0).unsqueeze(-1).type(torch.float32)
        keep = (ids > 5).type(torch.uint8).bool()
        weights = keep.float().unsqueeze(-1).type_as(h)
        mean = (h * mask).sum(1) / mask.sum(1).clamp(min=1)
        top = (h * weights).amax(1)
        return torch.cat([mean, top], -1).to(torch.float16 if h.is_cuda else torch.float32)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    pool = MaskedPool().to(device)
    print(pool(torch.randint(0, 1000, (4, 12), device=device)).dtype)
