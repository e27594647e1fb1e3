import torch
import torch.nn as nn

_REGISTRY = {}


def register(name):
    def wrap(cls):
        _REGISTRY[name] = cls
        return cls
    return wrap


def build_model(cfg):
    return _REGISTRY[cfg.arch](cfg)


@register("decay_gru")
class DecayGRUTagger(nn.Module):
    """GRU tagger whose features are down-weighted with distance from the sequence start."""

    def __init__(self, cfg):
        super().__init__()
        self.tau = cfg.tau
        self.emb = nn.Embedding(cfg.vocab_size, cfg.emb_dim, padding_idx=0)
        self.gru = nn.GRU(cfg.emb_dim, cfg.hidden, batch_first=True, bidirectional=True)
        self.proj = nn.Linear(2 * cfg.hidden, cfg.num_tags)

    def forward(self, tokens):
        h, _ = self.gru(self.emb(tokens))
        decay = torch.exp(-torch.arange(tokens.size(1), dtype=h.dtype, device=h.device) / self.tau)
        decay = decay.unsqueeze(-1)
        return self.proj(h * (0.5 + decay))


@register("plain_gru")
class PlainGRUTagger(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.emb = nn.Embedding(cfg.vocab_size, cfg.emb_dim, padding_idx=0)
        self.gru = nn.GRU(cfg.emb_dim, cfg.hidden, batch_first=True)
        self.proj = nn.Linear(cfg.hidden, cfg.num_tags)

    def forward(self, tokens):
        h, _ = self.gru(self.emb(tokens))
        return self.proj(h)
