"""Training entry point of the tagger: settings from config.py, batches from data.py through a
functools.partial collate, model from models.py, report from report.py. Words and tags go to the
device; the lengths stay on the CPU for pack_padded_sequence.

Thread: https://github.com/pytorch/pytorch/issues/43227 (lengths of packed sequences must be a CPU
tensor even when the model runs on CUDA).
"""
import functools

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from config import TaggerConfig
from data import TaggedSentences, pad_batch
from models import BiLSTMTagger
from report import per_tag_report


def main():
    cfg = TaggerConfig()
    device = torch.device(cfg.device)
    collate = functools.partial(pad_batch, pad_id=cfg.pad_id, pad_tag=cfg.pad_tag)
    train = DataLoader(TaggedSentences(800, cfg.vocab_size, cfg.num_tags), batch_size=cfg.batch_size,
                       shuffle=True, collate_fn=collate)
    val = DataLoader(TaggedSentences(160, cfg.vocab_size, cfg.num_tags, seed=1), batch_size=64,
                     collate_fn=collate)
    model = BiLSTMTagger(cfg).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        model.train()
        for words, tags, lengths in train:
            words, tags = words.to(device), tags.to(device)
            logits = model(words, lengths)
            loss = F.cross_entropy(logits.reshape(-1, cfg.num_tags), tags.reshape(-1), ignore_index=cfg.pad_tag)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            words, tags, lengths = next(iter(val))
            logits = model(words.to(device), lengths)
        for tag, precision, recall in per_tag_report(logits, tags, cfg.num_tags, cfg.pad_tag):
            print(epoch, tag, round(float(precision), 3), round(float(recall), 3))


if __name__ == "__main__":
    main()
