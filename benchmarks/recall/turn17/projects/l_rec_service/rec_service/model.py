import torch
import torch.nn as nn


class RankingModel(nn.Module):
    """Shared embedding table for all categorical fields (field offsets kept
    as a buffer), standardised numerics, cross layer + MLP."""

    def __init__(self, cardinalities, n_numeric, mean, std, dim=16, hidden=64):
        super().__init__()
        offsets = torch.tensor([0] + list(cardinalities[:-1])).cumsum(0)
        self.register_buffer("offsets", offsets)
        self.register_buffer("num_mean", torch.tensor(mean, dtype=torch.float32))
        self.register_buffer("num_std", torch.tensor(std, dtype=torch.float32))
        self.table = nn.Embedding(int(sum(cardinalities)), dim)
        d_in = dim * len(cardinalities) + n_numeric
        self.cross = nn.Linear(d_in, d_in)
        self.mlp = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Dropout(0.1), nn.Linear(hidden, 1))

    def forward(self, cats, nums):
        emb = self.table(cats + self.offsets).flatten(1)
        x0 = torch.cat([emb, (nums - self.num_mean) / self.num_std], dim=1)
        x = x0 * self.cross(x0) + x0          # one DCN-style cross layer
        return self.mlp(x).squeeze(-1)

    @torch.no_grad()
    def item_vectors(self, item_codes, field_index=1):
        # item_codes: codes of the item_id field; rows of the shared table
        return self.table.weight[item_codes + self.offsets[field_index].item()]
