"""Zipped labelled/unlabelled loaders and a partial-bound collate_fn, every tensor moved; the
batch's list of raw strings is left on the host.

Look-alike of zip_loaders_unlabeled_target.py and partial_collate_label_excluded.py.
Thread: https://github.com/hangyu94/Ada-CM/issues/10
"""
from functools import partial

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def collate(items, scale):
    xs, texts = zip(*items)
    return {"x": torch.stack(xs) * scale, "text": list(texts)}


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3)).to(device)
    lab = DataLoader(TensorDataset(torch.randn(64, 10), torch.randint(0, 3, (64,))), batch_size=16)
    unl = DataLoader([(torch.randn(10), f"u{i}") for i in range(256)], batch_size=64,
                     collate_fn=partial(collate, scale=0.5))
    for (xl, yl), ub in zip(lab, unl):
        xl, yl = xl.to(device), yl.to(device)
        xu = ub["x"].to(device)
        loss = nn.functional.cross_entropy(net(xl), yl) + net(xu).logsumexp(-1).mean()
        loss.backward()
        print(len(ub["text"]), loss.item())


if __name__ == "__main__":
    main()
