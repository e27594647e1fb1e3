"""Split a transformer text classifier across two GPUs when the box has them
(embeddings + first half of the layers on one card, the rest + head on the other).
One GPU or none: everything lands on the single available device.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


def pick_devices():
    if torch.cuda.device_count() >= 2:
        return torch.device("cuda:0"), torch.device("cuda:1")
    single = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return single, single


class SplitEncoderClassifier(nn.Module):
    def __init__(self, vocab, n_classes, d_model=64, n_layers=4, max_len=64, devices=None):
        super().__init__()
        self.dev_a, self.dev_b = devices
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        make = lambda: nn.TransformerEncoderLayer(d_model, 4, 4 * d_model, dropout=0.1, batch_first=True)
        half = n_layers // 2
        self.front = nn.ModuleList([make() for _ in range(half)])
        self.back = nn.ModuleList([make() for _ in range(n_layers - half)])
        self.norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, n_classes)
        self.place()

    def place(self):
        for m in (self.tok, self.pos, self.front):
            m.to(self.dev_a)
        for m in (self.back, self.norm, self.head):
            m.to(self.dev_b)
        return self

    def forward(self, ids, pad_mask):
        ids, pad_mask = ids.to(self.dev_a), pad_mask.to(self.dev_a)
        positions = torch.arange(ids.size(1), device=self.dev_a)
        x = self.tok(ids) + self.pos(positions)[None]
        for layer in self.front:
            x = layer(x, src_key_padding_mask=pad_mask)
        x, pad_mask = x.to(self.dev_b), pad_mask.to(self.dev_b)
        for layer in self.back:
            x = layer(x, src_key_padding_mask=pad_mask)
        x = self.norm(x)
        keep = (~pad_mask).unsqueeze(-1).float()
        return self.head((x * keep).sum(1) / keep.sum(1).clamp(min=1))


def toy_batch(n, vocab, seq, gen):
    labels = torch.randint(0, 3, (n,), generator=gen)
    lengths = torch.randint(seq // 2, seq + 1, (n,), generator=gen)
    ids = torch.randint(4, vocab, (n, seq), generator=gen)
    ids[:, 0] = labels + 1  # class cue in the first token
    pad = torch.arange(seq)[None, :] >= lengths[:, None]
    ids[pad] = 0
    return ids, pad, labels


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--batch-size", type=int, default=32)
    args = ap.parse_args()

    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    devices = pick_devices()
    print("devices:", devices)
    model = SplitEncoderClassifier(vocab=100, n_classes=3, devices=devices)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

    for step in range(args.steps):
        ids, pad, labels = toy_batch(args.batch_size, 100, 32, gen)
        logits = model(ids, pad)
        loss = F.cross_entropy(logits, labels.to(logits.device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 20 == 0:
            acc = (logits.argmax(1).cpu() == labels).float().mean().item()
            print(f"step {step}: loss {loss.item():.3f} acc {acc:.2f}")


if __name__ == "__main__":
    main()
