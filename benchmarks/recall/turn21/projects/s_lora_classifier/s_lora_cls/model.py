import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.query = nn.Linear(d, d)
        self.key = nn.Linear(d, d)
        self.value = nn.Linear(d, d)
        self.out = nn.Linear(d, d)

    def forward(self, x, mask):
        b, t, d = x.shape
        q, k, v = (m(x).view(b, t, self.heads, -1).transpose(1, 2) for m in (self.query, self.key, self.value))
        attn_mask = mask[:, None, None, :].bool()
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)
        return self.out(y.transpose(1, 2).reshape(b, t, d))


class EncoderLayer(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.attn = SelfAttention(d, heads)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)

    def forward(self, x, mask):
        x = x + self.attn(self.ln1(x), mask)
        return x + self.ff(self.ln2(x))


class Encoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg.vocab_size, cfg.d_model, padding_idx=0)
        self.layers = nn.ModuleList(EncoderLayer(cfg.d_model, cfg.n_heads) for _ in range(cfg.n_layers))
        self.classifier = nn.Linear(cfg.d_model, cfg.num_labels)

    def forward(self, input_ids, attention_mask):
        x = self.embed(input_ids)
        for layer in self.layers:
            x = layer(x, attention_mask)
        m = attention_mask.unsqueeze(-1).to(x.dtype)
        return self.classifier((x * m).sum(1) / m.sum(1).clamp(min=1))


def load_pretrained(cfg):
    model = Encoder(cfg)
    state = Encoder(cfg).state_dict()  # stand-in for a downloaded checkpoint
    model.load_state_dict(state)
    return model
