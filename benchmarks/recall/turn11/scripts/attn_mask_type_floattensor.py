"""Review-sentiment classifier with a hand-written multi-head self-attention layer; the padding
mask is turned into an additive bias on the attention scores.

Thread: https://github.com/grammarly/gector/issues/59 (legacy tensor types in
seq2labels_model.py: "Expected object of device type cuda but got device type cpu").
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

VOCAB, PAD = 2000, 0


class SelfAttention(nn.Module):
    def __init__(self, d=64, heads=4):
        super().__init__()
        self.heads, self.dk = heads, d // heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)

    def forward(self, h, ids):
        B, T, D = h.shape
        q, k, v = self.qkv(h).view(B, T, 3, self.heads, self.dk).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / self.dk ** 0.5
        mask = (ids != PAD).type(torch.FloatTensor)  # expect: DEV021
        scores = scores + (1.0 - mask)[:, None, None, :] * -1e4
        out = (scores.softmax(-1) @ v).transpose(1, 2).reshape(B, T, D)
        return self.proj(out)


class SentimentNet(nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, d, padding_idx=PAD)
        self.attn = SelfAttention(d)
        self.cls = nn.Linear(d, 2)

    def forward(self, ids):
        h = self.emb(ids)
        h = h + self.attn(h, ids)
        keep = (ids != PAD).unsqueeze(-1).to(h.dtype)
        return self.cls((h * keep).sum(1) / keep.sum(1).clamp_min(1))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ids = torch.randint(1, VOCAB, (400, 50))
    lengths = torch.randint(10, 51, (400,))
    ids[torch.arange(50)[None, :] >= lengths[:, None]] = PAD
    labels = torch.randint(0, 2, (400,))
    model = SentimentNet().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for x, y in DataLoader(TensorDataset(ids, labels), batch_size=32, shuffle=True):
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: {loss.item():.3f}")


if __name__ == "__main__":
    main()
