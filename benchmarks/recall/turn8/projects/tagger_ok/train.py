"""Tagger training: batches moved whole, predictions copied to the host before the report.

Thread: https://github.com/Tencent/NeuralNLP-NeuralClassifier/issues/21 (the look-alike of a config
that names the device).
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from config import TagConfig
from model import Tagger
from report import tag_histogram


def main():
    cfg = TagConfig()
    model = Tagger(cfg.vocab, cfg.dim, cfg.n_tags).to(cfg.device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    ds = TensorDataset(torch.randint(0, cfg.vocab, (64, 12)), torch.randint(0, cfg.n_tags, (64, 12)))
    for ids, tags in DataLoader(ds, batch_size=16):
        ids, tags = ids.to(cfg.device), tags.to(cfg.device)
        loss = nn.functional.cross_entropy(model(ids).flatten(0, 1), tags.flatten())
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        pred = model(torch.randint(0, cfg.vocab, (8, 12), device=cfg.device)).argmax(-1).cpu()
    print(tag_histogram(pred, cfg.n_tags))


if __name__ == "__main__":
    main()
