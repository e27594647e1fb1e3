"""Two-stage pipeline: a big encoder on GPU 0 and a reranker on GPU 1 when CUDA is there."""
import torch
import torch.nn as nn

if torch.cuda.is_available():
    enc_device = torch.device("cuda", 0)
    rerank_device = torch.device("cuda", 1)  # expect: DEV018
else:
    enc_device = rerank_device = torch.device("cpu")

encoder = nn.Sequential(nn.Linear(300, 768), nn.GELU(), nn.Linear(768, 768)).to(enc_device)
reranker = nn.Sequential(nn.Linear(2 * 768, 256), nn.ReLU(), nn.Linear(256, 1)).to(rerank_device)


@torch.no_grad()
def rank(query, docs):
    q = encoder(query.to(enc_device))
    d = encoder(docs.to(enc_device))
    pairs = torch.cat([q.expand_as(d), d], dim=-1).to(rerank_device)
    return reranker(pairs).squeeze(-1).argsort(descending=True).cpu()


if __name__ == "__main__":
    print(rank(torch.randn(1, 300), torch.randn(10, 300)))
