"""accelerate done right: every loader prepared, the EMA copied after prepare and moved, loss
weights on the accelerator's device, gathered results copied to the host before NumPy."""
import copy

import numpy as np
import torch
import torch.nn as nn
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def main():
    accelerator = Accelerator()
    x, y = torch.randn(300, 12), torch.randint(0, 3, (300,))
    counts = torch.bincount(y, minlength=3).float()
    model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 3))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    train = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)
    val = DataLoader(TensorDataset(x[:90], y[:90]), batch_size=30)
    criterion = nn.CrossEntropyLoss(weight=(1.0 / counts).to(accelerator.device))
    model, opt, train, val = accelerator.prepare(model, opt, train, val)
    ema = copy.deepcopy(accelerator.unwrap_model(model)).to(accelerator.device)
    for xb, yb in train:
        loss = criterion(model(xb), yb)
        accelerator.backward(loss)
        opt.step()
        opt.zero_grad()
        with torch.no_grad():
            for e, p in zip(ema.parameters(), accelerator.unwrap_model(model).parameters()):
                e.lerp_(p, 0.01)
    preds, refs = [], []
    for xb, yb in val:
        with torch.no_grad():
            p = ema(xb).argmax(-1)
        p, r = accelerator.gather_for_metrics((p, yb))
        preds.append(p.cpu())
        refs.append(r.cpu())
    print(np.mean(np.concatenate(preds) == np.concatenate(refs)))


if __name__ == "__main__":
    main()
