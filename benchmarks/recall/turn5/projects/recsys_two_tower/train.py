"""Train the two-tower model with sampled softmax and report HR@10 / NDCG@10."""
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from config import parse_args
from metrics import hit_rate_and_ndcg
from models import TwoTower
from sampling import with_negatives


def interactions(args, n=50000):
    g = torch.Generator().manual_seed(0)
    users = torch.randint(0, args.users, (n,), generator=g)
    items = (users * 7 + torch.randint(0, 50, (n,), generator=g)) % args.items
    return TensorDataset(users, items)


def main():
    args = parse_args()
    device = args.device
    data = interactions(args)
    train, test = torch.utils.data.random_split(data, [45000, 5000])
    model = TwoTower(args.users, args.items, args.dim).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        model.train()
        for users, pos in DataLoader(train, batch_size=512, shuffle=True):
            users, pos = users.to(device), pos.to(device)
            cand = with_negatives(pos, args.items, args.negatives)
            logits = model.score(users, cand)
            loss = F.cross_entropy(logits, torch.zeros(len(users), dtype=torch.long, device=device))
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        all_scores = []
        with torch.no_grad():
            for users, pos in DataLoader(test, batch_size=1000):
                users, pos = users.to(device), pos.to(device)
                all_scores.append(model.score(users, with_negatives(pos, args.items, 99)))
        hr, ndcg = hit_rate_and_ndcg(torch.cat(all_scores))
        print(f"epoch {epoch}: loss {loss.item():.3f} HR@10 {hr:.3f} NDCG@10 {ndcg:.3f}")


if __name__ == "__main__":
    main()
