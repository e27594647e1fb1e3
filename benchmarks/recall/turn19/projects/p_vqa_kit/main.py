"""Train / resume the toy VQA model.

    python main.py --epochs 3
    python main.py --epochs 5 --resume /tmp/vqakit/last.pt
"""
import argparse
import os

import torch
from torch.utils.data import DataLoader

from vqakit import VQAModel, WordVocab
from vqakit.checkpoint import load_checkpoint, save_checkpoint
from vqakit.data import ANSWERS, Collator, ShapesVQA
from vqakit.engine import evaluate, train_one_epoch


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--out", default="/tmp/vqakit/last.pt")
    p.add_argument("--resume", default="")
    p.add_argument("--device", default=None, help="cpu, cuda, cuda:N (default: cuda if available)")
    return p.parse_args()


def main():
    args = parse_args()
    device = torch.device(args.device or ("cuda" if torch.cuda.is_available() else "cpu"))

    train_set, val_set = ShapesVQA(480, seed=0), ShapesVQA(120, seed=1)
    vocab = WordVocab(train_set.questions + val_set.questions)
    collate = Collator(vocab)
    train_loader = DataLoader(train_set, batch_size=args.batch_size, shuffle=True, collate_fn=collate)
    val_loader = DataLoader(val_set, batch_size=64, collate_fn=collate)

    model = VQAModel(len(vocab), len(ANSWERS)).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    start = 0
    if args.resume and os.path.isfile(args.resume):
        ckpt = load_checkpoint(args.resume, device)
        model.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])
        start = ckpt["epoch"] + 1

    for epoch in range(start, start + args.epochs):
        loss = train_one_epoch(model, train_loader, optimizer, device)
        acc, confusion = evaluate(model, val_loader, device, len(ANSWERS))
        print(f"epoch {epoch}: train loss {loss:.3f}  val acc {acc:.3f}")
        save_checkpoint(args.out, model, optimizer, epoch)
    print(confusion)


if __name__ == "__main__":
    main()
