import torch
import torch.nn as nn


class ChurnNet(nn.Module):
    def __init__(self, cfg, vocabs, num_mean, num_std):
        super().__init__()
        self.cat_cols = list(cfg.cat_cols)
        self.embeddings = nn.ModuleDict({c: nn.Embedding(len(vocabs[c]) + 1, cfg.emb_dim) for c in self.cat_cols})
        self.register_buffer("num_mean", torch.tensor(num_mean, dtype=torch.float32))
        self.register_buffer("num_std", torch.tensor(num_std, dtype=torch.float32))
        d_in = cfg.emb_dim * len(self.cat_cols) + len(num_mean)
        self.mlp = nn.Sequential(nn.Linear(d_in, cfg.hidden), nn.ReLU(), nn.Dropout(0.1),
                                 nn.Linear(cfg.hidden, 2))

    def forward(self, cats, nums):
        z = (nums - self.num_mean) / self.num_std
        embs = [self.embeddings[c](cats[:, i]) for i, c in enumerate(self.cat_cols)]
        return self.mlp(torch.cat(embs + [z], dim=1))
