"""Nucleus (top-p) sampling from a small transformer decoder with a learned positional table;
the cut-off is kept as a tensor so it can be swept per batch row."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyDecoder(nn.Module):
    def __init__(self, vocab=50, dim=32, max_len=64):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        layer = nn.TransformerEncoderLayer(dim, 4, 64, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, 2)
        self.head = nn.Linear(dim, vocab)

    def forward(self, idx):
        T = idx.size(1)
        pos = torch.arange(T, device=idx.device)
        mask = nn.Transformer.generate_square_subsequent_mask(T, device=idx.device)
        h = self.blocks(self.tok(idx) + self.pos(pos), mask=mask, is_causal=True)
        return self.head(h)


@torch.no_grad()
def top_p_sample(model, idx, steps, top_p=0.9):
    threshold = torch.full((idx.size(0), 1), top_p)  # expect: DEV006
    for _ in range(steps):
        logits = model(idx)[:, -1]
        sorted_logits, order = torch.sort(logits, descending=True)
        cum = F.softmax(sorted_logits, dim=-1).cumsum(-1)
        drop = cum - F.softmax(sorted_logits, dim=-1) > threshold
        sorted_logits = sorted_logits.masked_fill(drop, float("-inf"))
        choice = torch.multinomial(F.softmax(sorted_logits, -1), 1)
        idx = torch.cat([idx, order.gather(-1, choice)], dim=1)
    return idx


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = TinyDecoder().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    seq = torch.arange(0, 50).repeat(20)
    for step in range(60):
        s = torch.randint(0, len(seq) - 17, (8,))
        batch = torch.stack([seq[i:i + 17] for i in s]).to(device)
        loss = F.cross_entropy(model(batch[:, :-1]).flatten(0, 1), batch[:, 1:].flatten())
        opt.zero_grad()
        loss.backward()
        opt.step()
    start = torch.zeros(4, 1, dtype=torch.long, device=device)
    print(top_p_sample(model, start, 12).tolist())


if __name__ == "__main__":
    main()
