"""Training entry point: device from settings.py, model from model.py, metrics from metrics.py.

Thread: https://github.com/sooftware/kospeech/issues/10
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from metrics import token_accuracy
from model import Seq2Seq
from settings import DEVICE, VOCAB


def main():
    model = Seq2Seq().to(DEVICE)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    ds = TensorDataset(torch.randint(3, VOCAB, (64, 9)), torch.randint(3, VOCAB, (64, 7)))
    for src, tgt in DataLoader(ds, batch_size=16, shuffle=True):
        src, tgt = src.to(DEVICE), tgt.to(DEVICE)
        logits = model(src, tgt.size(1))
        loss = nn.functional.cross_entropy(logits.reshape(-1, VOCAB), tgt.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        acc, exact = token_accuracy(model(src, tgt.size(1)), tgt)
    print(loss.item(), acc, exact)


if __name__ == "__main__":
    main()
