"""Train the churn model, keep the best checkpoint by top-quintile lift, reload it and
print the lift table.

    python run.py [--device cpu] [--resume]
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from churn.config import Config, resolve_device
from churn.data import build_vocabs, class_weights, synthetic_customers, to_dataset
from churn.engine import lift_table, load, predict_proba, save, train_epoch
from churn.model import ChurnNet


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default=None)
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--workdir", default=tempfile.gettempdir())
    args = ap.parse_args()

    cfg = Config(device=args.device)
    device = resolve_device(cfg.device)
    ckpt = os.path.join(args.workdir, cfg.ckpt)

    df = synthetic_customers()
    train_df = df.sample(frac=0.8, random_state=1)
    test_df = df.drop(train_df.index)
    vocabs = build_vocabs(train_df, cfg.cat_cols)
    train_dl = DataLoader(to_dataset(train_df, cfg, vocabs), batch_size=cfg.batch_size, shuffle=True)
    test_dl = DataLoader(to_dataset(test_df, cfg, vocabs), batch_size=512)

    model = ChurnNet(cfg, vocabs, train_df[cfg.num_cols].mean().to_numpy(),
                     train_df[cfg.num_cols].std().to_numpy()).to(device)
    criterion = nn.CrossEntropyLoss(weight=class_weights(train_df, cfg.target).to(device))
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)

    start, best = 0, -1.0
    if args.resume and os.path.exists(ckpt):
        start, best = load(ckpt, model, optimizer, device)
        start += 1
        print(f"resumed at epoch {start} (best lift {best:.2f})")

    for epoch in range(start, start + cfg.epochs):
        loss = train_epoch(model, train_dl, criterion, optimizer, device)
        probs, labels = predict_proba(model, test_dl, device)
        lift = lift_table(probs, labels)[0]
        print(f"epoch {epoch}: loss {loss:.4f} top-quintile lift {lift:.2f}")
        if lift > best:
            best = lift
            save(ckpt, model, optimizer, epoch, lift)

    load(ckpt, model, None, device)
    probs, labels = predict_proba(model, test_dl, device)
    print("lift by quintile:", [round(x, 2) for x in lift_table(probs, labels)])


if __name__ == "__main__":
    main()
