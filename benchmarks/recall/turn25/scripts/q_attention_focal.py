"""Causal transformer tagger for imbalanced next-event prediction.

Pieces: a straight-through quantiser written as an autograd.Function, a causal
self-attention block with its own mask, and a focal loss module with per-class
alpha.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RoundSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, step):
        ctx.save_for_backward(x)
        ctx.step = step
        return torch.round(x / step) * step

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        passthrough = (x.abs() <= 4.0).to(grad_out.dtype)
        return grad_out * passthrough, None


class CausalSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads, dropout=0.1):
        super().__init__()
        self.h = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.drop = nn.Dropout(dropout)
        self.reset_parameters()

    def reset_parameters(self):
        nn.init.xavier_uniform_(self.qkv.weight)
        nn.init.zeros_(self.qkv.bias)
        nn.init.xavier_uniform_(self.proj.weight, gain=0.5)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.h, d // self.h).permute(2, 0, 3, 1, 4)
        att = q @ k.transpose(-2, -1) / (d // self.h) ** 0.5
        future = torch.triu(torch.ones(t, t, dtype=torch.bool), diagonal=1)  # expect: DEV006
        att = att.masked_fill(future, float("-inf"))
        y = self.drop(att.softmax(-1)) @ v
        return self.proj(y.transpose(1, 2).reshape(b, t, d))


class FocalLoss(nn.Module):
    def __init__(self, alpha, gamma=2.0):
        super().__init__()
        self.alpha = torch.as_tensor(alpha, dtype=torch.float32)  # expect: DEV010
        self.gamma = gamma

    def forward(self, logits, target):
        logp = F.log_softmax(logits, -1).gather(1, target[:, None]).squeeze(1)
        p = logp.exp()
        return (-self.alpha[target] * (1 - p) ** self.gamma * logp).mean()


class EventTagger(nn.Module):
    def __init__(self, n_events=6, d_model=32, n_heads=4):
        super().__init__()
        self.emb = nn.Embedding(n_events, d_model)
        self.attn = CausalSelfAttention(d_model, n_heads)
        self.ln = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, n_events)

    def forward(self, events):
        h = self.emb(events)
        h = h + self.attn(self.ln(h))
        h = RoundSTE.apply(h, 0.05)
        return self.head(h)


def make_sequences(n, length, n_events, g):
    seq = torch.zeros(n, length, dtype=torch.long)
    for t in range(1, length):
        stay = torch.rand(n, generator=g) < 0.8
        seq[:, t] = torch.where(stay, seq[:, t - 1], torch.randint(0, n_events, (n,), generator=g))
    return seq


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    g = torch.Generator().manual_seed(0)
    data = make_sequences(256, 16, 6, g)
    counts = torch.bincount(data.flatten(), minlength=6).float()
    model = EventTagger().to(device)
    criterion = FocalLoss(alpha=(counts.sum() / (6 * counts)).clamp(max=5.0).tolist()).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    for step in range(30):
        batch = data[torch.randint(0, len(data), (32,), generator=g)].to(device)
        logits = model(batch[:, :-1])
        loss = criterion(logits.reshape(-1, 6), batch[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            print(f"step {step} focal {loss.item():.4f}")
