"""Face-embedding training with softmax plus a center loss whose class centers are learnable.

Thread: https://github.com/kitzeslab/opensoundscape/issues/438 (cuda device issues: in loss
calculation one tensor is on cuda, one on CPU); https://github.com/pytorch/pytorch/pull/150750.
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class CenterLoss(nn.Module):
    def __init__(self, n_cls, dim):
        super().__init__()
        self.centers = nn.Parameter(torch.randn(n_cls, dim))

    def forward(self, feats, labels):
        return ((feats - self.centers[labels]) ** 2).sum(1).mean() / 2


class Embedder(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(40, 64), nn.PReLU(), nn.Linear(64, 8))
        self.cls = nn.Linear(8, 10)

    def forward(self, x):
        e = self.body(x)
        return e, self.cls(e)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Embedder().to(device)
    center_loss = CenterLoss(10, 8)  # expect: DEV012
    opt = torch.optim.SGD(list(model.parameters()) + list(center_loss.parameters()), lr=0.05)
    dl = DataLoader(TensorDataset(torch.randn(400, 40), torch.randint(0, 10, (400,))), batch_size=40)
    for feats_in, ids in dl:
        feats_in, ids = feats_in.to(device), ids.to(device)
        emb, logits = model(feats_in)
        loss = nn.functional.cross_entropy(logits, ids) + 0.01 * center_loss(emb, ids)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
