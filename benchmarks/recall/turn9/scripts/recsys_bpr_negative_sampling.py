"""BPR matrix factorisation with uniformly sampled negative items per positive interaction.

Thread: https://github.com/RUCAIBox/RecBole/pull/1997 (RuntimeError: Expected all tensors to be on the
same device with negative sampling evaluations).
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
        neg = torch.randint(0, N_ITEMS, (users.size(0),))  # expect: DEV006
        loss = -nn.functional.logsigmoid(model(users, pos) - model(users, neg)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
