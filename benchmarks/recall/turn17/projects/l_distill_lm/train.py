"""Entry point: python train.py [--epochs N] [--temperature T] [--cpu]"""
import argparse
import os

import torch

from distill_lm.config import DistillConfig
from distill_lm.data import Vocab, build_loaders, toy_corpus
from distill_lm.evaluation import perplexity
from distill_lm.modeling import build_student, load_teacher, pretrain_teacher
from distill_lm.trainer import DistillTrainer


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--temperature", type=float, default=2.0)
    ap.add_argument("--teacher-ckpt", default="runs/teacher_lm.pt")
    ap.add_argument("--cpu", action="store_true")
    args = ap.parse_args()

    cfg = DistillConfig(epochs=args.epochs, temperature=args.temperature, teacher_ckpt=args.teacher_ckpt)
    if args.cpu:
        cfg.device = "cpu"
    torch.manual_seed(0)

    texts = toy_corpus()
    vocab = Vocab(texts)
    cfg.vocab_size = len(vocab)
    train_loader, val_loader = build_loaders(cfg, vocab, texts)

    if not os.path.exists(cfg.teacher_ckpt):
        print(f"{cfg.teacher_ckpt} not found: pretraining the teacher")
        pretrain_teacher(cfg, train_loader)
    teacher = load_teacher(cfg)

    trainer = DistillTrainer(cfg, build_student(cfg), teacher)
    print(f"teacher val ppl {perplexity(trainer.teacher, val_loader):.2f}")
    trainer.fit(train_loader, val_loader)


if __name__ == "__main__":
    main()
