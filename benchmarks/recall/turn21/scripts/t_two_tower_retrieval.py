"""Two-tower retrieval model trained with in-batch negatives (sampled softmax).
The item tower holds the big id table, so it is placed on a second GPU."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

N_USERS, N_ITEMS, N_GENRES, DIM = 200, 1000, 12, 32


class UserTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.user = nn.Embedding(N_USERS, DIM)
        self.history = nn.EmbeddingBag(N_ITEMS, DIM, mode="mean")
        self.mlp = nn.Sequential(nn.Linear(2 * DIM, DIM), nn.ReLU(), nn.Linear(DIM, DIM))

    def forward(self, user_ids, hist):
        return F.normalize(self.mlp(torch.cat([self.user(user_ids), self.history(hist)], -1)), dim=-1)


class ItemTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.item = nn.Embedding(N_ITEMS, DIM)
        self.genre = nn.Embedding(N_GENRES, DIM)
        self.mlp = nn.Sequential(nn.Linear(2 * DIM, DIM), nn.ReLU(), nn.Linear(DIM, DIM))

    def forward(self, item_ids, genre_ids):
        return F.normalize(self.mlp(torch.cat([self.item(item_ids), self.genre(genre_ids)], -1)), dim=-1)


def synthetic_log(n=512, seed=0):
    g = torch.Generator().manual_seed(seed)
    users = torch.randint(0, N_USERS, (n,), generator=g)
    hist = torch.randint(0, N_ITEMS, (n, 5), generator=g)
    items = (users * 5 + torch.randint(0, 5, (n,), generator=g)) % N_ITEMS
    genres = items % N_GENRES
    return TensorDataset(users, hist, items, genres)


def main():
    has_gpu = torch.cuda.is_available()
    user_device = torch.device("cuda:0" if has_gpu else "cpu")
    item_device = torch.device("cuda:1" if has_gpu else "cpu")  # expect: DEV018

    user_tower = UserTower().to(user_device)
    item_tower = ItemTower().to(item_device)
    opt = torch.optim.Adam(list(user_tower.parameters()) + list(item_tower.parameters()), lr=2e-3)
    temperature = 0.05
    loader = DataLoader(synthetic_log(), batch_size=64, shuffle=True)

    for epoch in range(2):
        total = 0.0
        for users, hist, items, genres in loader:
            item_tower.to(item_device)  # expect: DEV007
            u = user_tower(users.to(user_device), hist.to(user_device))
            v = item_tower(items.to(item_device), genres.to(item_device)).to(user_device)
            logits = u @ v.t() / temperature
            labels = torch.arange(len(users), device=user_device)
            loss = F.cross_entropy(logits, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch} in-batch softmax loss {total / len(loader):.3f}")


if __name__ == "__main__":
    main()
