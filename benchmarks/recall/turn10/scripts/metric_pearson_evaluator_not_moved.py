"""Evaluation helper for a rating regressor: an Evaluator object accumulates torchmetrics
regression metrics over the validation batches and reports them at the end of each epoch.

Thread: https://github.com/sraashis/easytorch/pull/108 (device set before metrics usage: the
metric state has to live where the predictions are).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.regression import MeanAbsoluteError, PearsonCorrCoef


class Evaluator:
    def __init__(self, device):
        self.mae = MeanAbsoluteError().to(device)
        self.pearson = PearsonCorrCoef()  # expect: DEV019

    def update(self, preds, target):
        self.mae.update(preds, target)
        self.pearson.update(preds, target)

    def report(self):
        out = {"mae": self.mae.compute().item(), "pearson": self.pearson.compute().item()}
        self.mae.reset()
        self.pearson.reset()
        return out


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    users, items = torch.randint(0, 100, (4000,)), torch.randint(0, 300, (4000,))
    ratings = torch.rand(4000) * 4 + 1
    model = nn.ModuleDict({"u": nn.Embedding(100, 16), "i": nn.Embedding(300, 16)}).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    train = DataLoader(TensorDataset(users[:3500], items[:3500], ratings[:3500]), batch_size=256, shuffle=True)
    val = DataLoader(TensorDataset(users[3500:], items[3500:], ratings[3500:]), batch_size=256)
    evaluator = Evaluator(device)
    for epoch in range(3):
        for u, i, r in train:
            u, i, r = u.to(device), i.to(device), r.to(device)
            loss = F.mse_loss((model["u"](u) * model["i"](i)).sum(-1) + 3.0, r)
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            for u, i, r in val:
                u, i, r = u.to(device), i.to(device), r.to(device)
                evaluator.update((model["u"](u) * model["i"](i)).sum(-1) + 3.0, r)
        print(epoch, evaluator.report())


if __name__ == "__main__":
    main()
