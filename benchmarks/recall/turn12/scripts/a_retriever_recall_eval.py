"""Dual-encoder retrieval: train query and passage towers with in-batch
negatives, then encode everything in chunks and report recall@k.

Written from "when a tensor is generated from some_func(A.shape) ... the
generated tensor locates in cpu" (accelerate#2251, answered: `.to` is not
in-place), "Fix CUDA semantics for torch.train and torch.predict"
(`X.cuda()` needs to be `X = X.cuda()`) and "diff device issues in candidate
lookup" (ColBERT: retrieval code that reaches for `.cuda()` on its own).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, DIM, LEN = 500, 64, 12


class Tower(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM, padding_idx=0)
        self.proj = nn.Linear(DIM, DIM)

    def forward(self, ids):
        mask = (ids != 0).unsqueeze(-1).float()
        pooled = (self.emb(ids) * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        return F.normalize(self.proj(pooled), dim=-1)


def synthetic_pairs(n, g):
    passages = torch.randint(1, VOCAB, (n, LEN), generator=g)
    queries = passages.clone()
    drop = torch.rand(n, LEN, generator=g) < 0.5
    queries[drop] = 0
    return queries, passages


@torch.no_grad()
def encode(tower, ids, device, chunk=128):
    tower.eval()
    out = []
    for start in range(0, len(ids), chunk):
        batch = ids[start:start + chunk]
        batch.to(device)  # expect: DEV005
        out.append(tower(batch))  # also: DEV002
    return torch.cat(out)


def recall_at_k(q_emb, p_emb, k=5):
    scores = q_emb @ p_emb.T
    topk = scores.topk(k, dim=-1).indices
    gold = torch.arange(len(q_emb)).cuda()  # expect: DEV001
    return (topk == gold[:, None]).any(dim=-1).float().mean().item()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    g = torch.Generator().manual_seed(0)
    train_q, train_p = synthetic_pairs(2048, g)
    test_q, test_p = synthetic_pairs(512, g)
    q_tower, p_tower = Tower().to(device), Tower().to(device)
    opt = torch.optim.AdamW(list(q_tower.parameters()) + list(p_tower.parameters()), lr=2e-3)
    for step in range(200):
        idx = torch.randint(0, len(train_q), (64,), generator=g)
        q = q_tower(train_q[idx].to(device))
        p = p_tower(train_p[idx].to(device))
        logits = q @ p.T / 0.05
        loss = F.cross_entropy(logits, torch.arange(len(q), device=device))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("train loss", round(loss.item(), 3))
    q_emb = encode(q_tower, test_q, device)
    p_emb = encode(p_tower, test_p, device)
    print("recall@5", recall_at_k(q_emb, p_emb, k=5))


if __name__ == "__main__":
    main()
