"""Correct look-alike: device code that mixes in CPU tensors only where PyTorch allows it. A CPU
index tensor picks rows of CUDA tensors, 0-dim CPU tensors (a temperature, a schedule entry
indexed by a Python int) meet CUDA tensors as scalars, the label-smoothing table is built on the
device before it is indexed by device labels, and dtype casts use dtypes (.type(torch.float32),
.long()) rather than the legacy CPU tensor types.

Thread: https://github.com/cxliu0/PET/issues/4 (indices should be either on cpu or on the same
device as the indexed tensor: CPU indices are accepted, CPU tensors indexed by CUDA ones are
not).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def smoothing_table(num_classes, eps, device):
    table = torch.full((num_classes, num_classes), eps / (num_classes - 1), device=device)
    return table.fill_diagonal_(1.0 - eps)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 5)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    table = smoothing_table(5, 0.1, device)
    temperature = torch.tensor(1.5)
    warmup = torch.linspace(0.1, 1.0, 10)
    hard_rows = torch.tensor([0, 3, 7])
    data = TensorDataset(torch.randn(640, 20), torch.randint(0, 5, (640,)))
    for step, (x, y) in enumerate(DataLoader(data, batch_size=32, shuffle=True)):
        x, y = x.to(device), y.to(device)
        logits = model(x) / temperature
        soft = table[y]
        per_sample = -(soft * F.log_softmax(logits, -1)).sum(-1)
        per_sample[hard_rows] = per_sample[hard_rows] * 2
        weight = warmup[min(step, 9)]
        correct = (logits.argmax(-1) == y).type(torch.float32)
        loss = weight * per_sample.mean() + 0.0 * correct.mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    preds = model(x).argmax(-1).long()
    print(loss.item(), preds[:4].tolist())


if __name__ == "__main__":
    main()
