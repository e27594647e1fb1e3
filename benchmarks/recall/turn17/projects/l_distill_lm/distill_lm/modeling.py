import os

import torch
import torch.nn as nn
import torch.nn.functional as F


class GRULanguageModel(nn.Module):
    def __init__(self, vocab_size: int, dim: int, layers: int, dropout: float = 0.1):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.rnn = nn.GRU(dim, dim, num_layers=layers, batch_first=True,
                          dropout=dropout if layers > 1 else 0.0)
        self.drop = nn.Dropout(dropout)
        self.lm_head = nn.Linear(dim, vocab_size)

    def forward(self, input_ids):
        hidden, _ = self.rnn(self.drop(self.embed(input_ids)))
        return self.lm_head(self.drop(hidden)), hidden


def build_teacher(cfg):
    return GRULanguageModel(cfg.vocab_size, cfg.teacher_dim, cfg.teacher_layers)


def build_student(cfg):
    return GRULanguageModel(cfg.vocab_size, cfg.student_dim, cfg.student_layers)


def pretrain_teacher(cfg, train_loader):
    """Plain LM training for the teacher; only used when there is no checkpoint yet."""
    teacher = build_teacher(cfg).to(cfg.device)
    opt = torch.optim.Adam(teacher.parameters(), lr=cfg.lr)
    for _ in range(cfg.teacher_epochs):
        for batch in train_loader:
            ids, labels = batch["input_ids"].to(cfg.device), batch["labels"].to(cfg.device)
            logits, _ = teacher(ids)
            loss = F.cross_entropy(logits.flatten(0, 1), labels.flatten())
            opt.zero_grad()
            loss.backward()
            opt.step()
    os.makedirs(os.path.dirname(cfg.teacher_ckpt) or ".", exist_ok=True)
    torch.save({"state_dict": teacher.state_dict(), "vocab_size": cfg.vocab_size}, cfg.teacher_ckpt)


def load_teacher(cfg):
    teacher = build_teacher(cfg)
    ckpt = torch.load(cfg.teacher_ckpt)  # expect: DEV008
    teacher.load_state_dict(ckpt["state_dict"])
    teacher.eval()
    for p in teacher.parameters():
        p.requires_grad_(False)
    return teacher
