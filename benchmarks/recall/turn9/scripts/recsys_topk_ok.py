"""Look-alike of recsys_bpr_negative_sampling.py: negatives drawn with device=, a CPU index tensor of
already-seen items masking a CUDA score matrix, and top-k ids taken back with .tolist().

Thread: https://github.com/cxliu0/PET/issues/4 (only device indices into a CPU tensor fail; CPU
indices into a CUDA tensor are fine).
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

N_USERS, N_ITEMS = 50, 200


class MF(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.user = nn.Embedding(N_USERS, d)
        self.item = nn.Embedding(N_ITEMS, d)

    def forward(self, u, i):
        return (self.user(u) * self.item(i)).sum(-1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = MF().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    inter = TensorDataset(torch.randint(0, N_USERS, (512,)), torch.randint(0, N_ITEMS, (512,)))
    for users, pos in DataLoader(inter, batch_size=64, shuffle=True):
        users, pos = users.to(device), pos.to(device)
        neg = torch.randint(0, N_ITEMS, (users.size(0),), device=device)
        loss = -nn.functional.logsigmoid(model(users, pos) - model(users, neg)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        scores = model.user.weight @ model.item.weight.t()
        seen_u, seen_i = inter.tensors
        scores[seen_u, seen_i] = float("-inf")
        top = scores.topk(10, dim=1).indices
    print(top[0].tolist())


if __name__ == "__main__":
    main()
