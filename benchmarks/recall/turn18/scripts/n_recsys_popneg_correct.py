"""Implicit-feedback recommender (GMF) with a mix of popularity-based and uniform negatives."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class GMF(nn.Module):
    def __init__(self, n_users, n_items, item_counts, dim=32, alpha=0.75):
        super().__init__()
        self.n_items = n_items
        self.user = nn.Embedding(n_users, dim)
        self.item = nn.Embedding(n_items, dim)
        self.out = nn.Linear(dim, 1)
        pop = torch.as_tensor(item_counts, dtype=torch.float32).pow(alpha)
        self.register_buffer("neg_dist", pop / pop.sum())

    def forward(self, u, i):
        return self.out(self.user(u) * self.item(i)).squeeze(-1)

    def sample_negatives(self, batch_size, k, uniform_frac=0.5):
        n_uni = int(k * uniform_frac)
        uni = torch.randint(0, self.n_items, (batch_size, n_uni), device=self.neg_dist.device)
        pop = torch.multinomial(self.neg_dist, batch_size * (k - n_uni), replacement=True)
        return torch.cat([uni, pop.view(batch_size, k - n_uni)], dim=1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    rng = np.random.default_rng(0)
    n_users, n_items = 100, 400
    users = rng.integers(0, n_users, 3000)
    items = np.minimum(rng.geometric(0.02, 3000), n_items - 1)
    counts = np.bincount(items, minlength=n_items) + 1

    loader = DataLoader(TensorDataset(torch.from_numpy(users), torch.from_numpy(items)),
                        batch_size=256, shuffle=True)
    model = GMF(n_users, n_items, counts).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    k = 4
    for epoch in range(3):
        for u, pos in loader:
            u, pos = u.to(device), pos.to(device)
            neg = model.sample_negatives(u.size(0), k)
            pos_logit = model(u, pos)
            neg_logit = model(u.unsqueeze(1).expand(-1, k), neg)
            logits = torch.cat([pos_logit.unsqueeze(1), neg_logit], dim=1)
            labels = torch.zeros_like(logits)
            labels[:, 0] = 1.0
            loss = F.binary_cross_entropy_with_logits(logits, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
