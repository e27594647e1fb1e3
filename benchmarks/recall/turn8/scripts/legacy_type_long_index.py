"""Two-stage recommender: candidate ids come from an argmax on the GPU and are cast with a legacy
tensor type before the embedding lookup.

Thread: https://github.com/MicrosoftDocs/windows-ai-docs/issues/80 (Input type (torch.FloatTensor)
and weight type (torch.cuda.FloatTensor) should be the same); https://github.com/WongKinYiu/yolor/pull/284.
"""
import torch
import torch.nn as nn


class Reranker(nn.Module):
    def __init__(self, n_items=500, d=16):
        super().__init__()
        self.item = nn.Embedding(n_items, d)
        self.score = nn.Linear(2 * d, 1)

    def forward(self, user_vec, item_ids):
        return self.score(torch.cat([user_vec, self.item(item_ids)], -1)).squeeze(-1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    retr = nn.Linear(16, 500).to(device)
    rr = Reranker().to(device)
    users = torch.randn(32, 16, device=device)
    cand = retr(users).argmax(1).type(torch.LongTensor)  # expect: DEV021
    print(rr(users, cand).shape)


if __name__ == "__main__":
    main()
