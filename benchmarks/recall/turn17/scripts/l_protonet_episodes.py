"""Prototypical networks (Snell et al. 2017) on synthetic feature vectors.

Each episode: N classes, K support and Q query examples per class. Class
prototypes are the mean support embedding; queries are classified by
negative squared euclidean distance to the prototypes.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class EpisodeSampler:
    def __init__(self, n_classes=64, dim=40, n_way=5, k_shot=5, n_query=10, seed=0):
        self.g = torch.Generator().manual_seed(seed)
        self.centres = torch.randn(n_classes, dim, generator=self.g) * 0.35
        self.n_way, self.k_shot, self.n_query = n_way, k_shot, n_query

    def sample(self):
        classes = torch.randperm(len(self.centres), generator=self.g)[: self.n_way]
        n = self.k_shot + self.n_query
        pts = self.centres[classes].unsqueeze(1) + torch.randn(self.n_way, n, self.centres.size(1),
                                                               generator=self.g)
        return pts[:, : self.k_shot], pts[:, self.k_shot:]


class Encoder(nn.Module):
    def __init__(self, dim, hidden=128, out=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, hidden), nn.BatchNorm1d(hidden), nn.ReLU(),
                                 nn.Linear(hidden, out))

    def forward(self, x):
        return self.net(x)


def proto_logits(encoder, support, query):
    n_way, k_shot, d = support.shape
    emb_s = encoder(support.reshape(-1, d)).view(n_way, k_shot, -1)
    prototypes = emb_s.mean(1)
    emb_q = encoder(query.reshape(-1, d))
    return -torch.cdist(emb_q, prototypes).pow(2)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--episodes", type=int, default=200)
    ap.add_argument("--n-way", type=int, default=5)
    ap.add_argument("--k-shot", type=int, default=5)
    ap.add_argument("--n-query", type=int, default=10)
    args = ap.parse_args()

    # GPU 0 is taken by the feature-extraction job on our box
    device = torch.device("cuda:1" if torch.cuda.is_available() else "cpu")  # expect: DEV018

    train_sampler = EpisodeSampler(n_way=args.n_way, k_shot=args.k_shot, n_query=args.n_query, seed=0)
    test_sampler = EpisodeSampler(n_way=args.n_way, k_shot=args.k_shot, n_query=args.n_query, seed=1)
    encoder = Encoder(train_sampler.centres.size(1)).to(device)
    opt = torch.optim.Adam(encoder.parameters(), lr=1e-3)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=100, gamma=0.5)

    for episode in range(1, args.episodes + 1):
        encoder.train()
        support, query = train_sampler.sample()
        support, query = support.to(device), query.to(device)
        logits = proto_logits(encoder, support, query)
        targets = torch.arange(args.n_way).repeat_interleave(args.n_query)  # expect: DEV006
        loss = F.cross_entropy(logits, targets)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if episode % 50 == 0:
            acc = (logits.argmax(1) == targets).float().mean().item()
            print(f"episode {episode}: loss {loss.item():.3f} acc {acc:.3f}")

    encoder.eval()
    accs = []
    with torch.no_grad():
        for _ in range(50):
            support, query = test_sampler.sample()
            logits = proto_logits(encoder, support.to(device), query.to(device)).cpu()
            labels = torch.arange(args.n_way).repeat_interleave(args.n_query)
            accs.append((logits.argmax(1) == labels).float().mean())
    accs = torch.stack(accs)
    print(f"test {args.n_way}-way {args.k_shot}-shot: {accs.mean():.3f} +- {1.96 * accs.std() / len(accs) ** 0.5:.3f}")


if __name__ == "__main__":
    main()
