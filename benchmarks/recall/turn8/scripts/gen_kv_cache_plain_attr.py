"""Decoder layer with a preallocated key/value cache for incremental decoding.

Thread: https://github.com/TransformerLensOrg/TransformerLens/issues/1508 (generate() device
mismatch on CUDA machines, a tensor left on its original device); https://github.com/huggingface/transformers/pull/33871
(position_ids buffer left on the CPU).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CachedSelfAttention(nn.Module):
    def __init__(self, dim=32, heads=4, max_len=128, batch=2):
        super().__init__()
        self.h, self.dh = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.k_cache = torch.zeros(batch, heads, max_len, dim // heads)  # expect: DEV010
        self.v_cache = torch.zeros(batch, heads, max_len, dim // heads)  # expect: DEV010
        self.filled = 0

    def forward(self, x):
        b, t, _ = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
        self.k_cache[:, :, self.filled:self.filled + t] = k
        self.v_cache[:, :, self.filled:self.filled + t] = v
        self.filled += t
        att = F.scaled_dot_product_attention(q, self.k_cache[:, :, :self.filled], self.v_cache[:, :, :self.filled])
        return self.proj(att.transpose(1, 2).reshape(b, t, -1))


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    layer = CachedSelfAttention().to(dev)
    with torch.no_grad():
        y = layer(torch.randn(2, 6, 32, device=dev))
        for _ in range(4):
            y = layer(y[:, -1:])
    print(y.shape)
