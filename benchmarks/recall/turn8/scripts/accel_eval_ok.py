"""accelerate training and evaluation done right: both loaders prepared, gathered tensors copied
to the host before NumPy, a list of string ids never moved.

Look-alike of accel_eval_loader_unprepared.py and accel_gather_numpy_f1.py.
Thread: https://github.com/neuro-ml/thunder/issues/49
"""
import numpy as np
import torch
import torch.nn as nn
from accelerate import Accelerator
from torch.utils.data import DataLoader, Dataset


class Rows(Dataset):
    def __init__(self, n):
        self.x, self.y = torch.randn(n, 12), torch.randint(0, 3, (n,))

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return {"x": self.x[i], "y": self.y[i], "row_id": f"r{i}"}


def main():
    acc = Accelerator()
    net = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 3))
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    train_dl, val_dl = DataLoader(Rows(256), batch_size=32), DataLoader(Rows(64), batch_size=32)
    net, opt, train_dl, val_dl = acc.prepare(net, opt, train_dl, val_dl)
    for batch in train_dl:
        loss = nn.functional.cross_entropy(net(batch["x"]), batch["y"])
        acc.backward(loss)
        opt.step()
        opt.zero_grad()
    ids, preds = [], []
    with torch.no_grad():
        for batch in val_dl:
            p = acc.gather_for_metrics(net(batch["x"]).argmax(-1))
            preds.append(p.cpu().numpy())
            ids.extend(batch["row_id"])
    acc.print(len(ids), np.bincount(np.concatenate(preds)))


if __name__ == "__main__":
    main()
