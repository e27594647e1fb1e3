"""Train the asrkit recogniser: python train.py [--resume ckpt.pt] [--device cpu]"""
import argparse
from dataclasses import fields

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from asrkit import TrainConfig, resolve_device
from asrkit.augment import spec_augment
from asrkit.checkpoint import load_checkpoint, save_checkpoint
from asrkit.data import TOKENS, SyntheticCommands, collate
from asrkit.decode import cer, greedy_decode
from asrkit.model import Recogniser


def parse_config():
    parser = argparse.ArgumentParser()
    for f in fields(TrainConfig):
        parser.add_argument(f"--{f.name.replace('_', '-')}", type=type(f.default), default=f.default)
    return TrainConfig(**vars(parser.parse_args()))


def main():
    cfg = parse_config()
    device = resolve_device(cfg.device)
    train_set = SyntheticCommands(n_mels=cfg.n_mels)
    frames = torch.cat([f for f, _ in train_set.items])
    loader = DataLoader(train_set, batch_size=cfg.batch_size, shuffle=True, collate_fn=collate)

    model = Recogniser(cfg.n_mels, cfg.hidden, len(TOKENS), frames.mean(0), frames.std(0)).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    ctc = nn.CTCLoss(zero_infinity=True)
    start = load_checkpoint(cfg.resume, model, optimizer) if cfg.resume else 0

    for epoch in range(start, start + cfg.epochs):
        model.train()
        for feats, feat_lens, labels, label_lens in loader:
            feats = spec_augment(feats.to(device), feat_lens, cfg.freq_mask, cfg.time_mask)
            log_probs = model(feats)
            loss = ctc(log_probs.transpose(0, 1), labels.to(device), model.output_lengths(feat_lens), label_lens)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        save_checkpoint(cfg.ckpt_out, model, optimizer, epoch)

        model.eval()
        with torch.no_grad():
            feats, feat_lens, labels, label_lens = next(iter(loader))
            hyps = greedy_decode(model(feats.to(device)), model.output_lengths(feat_lens))
        refs, offset = [], 0
        for n in label_lens.tolist():
            refs.append("".join(TOKENS[i] for i in labels[offset:offset + n].tolist()))
            offset += n
        print(f"epoch {epoch} ctc {loss.item():.3f} cer {sum(map(cer, hyps, refs)) / len(refs):.3f}")


if __name__ == "__main__":
    main()
