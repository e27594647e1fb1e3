"""Knowledge distillation entry point: the configuration from config.py, the corpus and the
collate function from data.py (bound with functools.partial), the models from models.py.

Thread: https://github.com/shuxueslpi/chatGLM-6B-QLoRA/issues/38 (Expected all tensors to be on
the same device ... when checking argument for argument target in method
wrapper_CUDA_nll_loss_forward).
"""
import functools

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from config import DistillConfig
from data import TopicCorpus, pad_collate
from models import build_student, build_teacher


def distill_term(student_logits, teacher_logits, t):
    return F.kl_div(F.log_softmax(student_logits / t, -1), F.softmax(teacher_logits / t, -1),
                    reduction="batchmean") * t * t


def main():
    cfg = DistillConfig()
    device = torch.device(cfg.device)
    collate = functools.partial(pad_collate, pad_id=cfg.pad_id, max_len=cfg.max_len)
    loader = DataLoader(TopicCorpus(1024, cfg.vocab_size, cfg.num_labels), batch_size=cfg.batch_size,
                        shuffle=True, collate_fn=collate)
    teacher, student = build_teacher(cfg).to(device).eval(), build_student(cfg).to(device)
    opt = torch.optim.AdamW(student.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        for ids, mask, labels in loader:
            ids, mask = ids.to(device), mask.to(device)
            with torch.no_grad():
                teacher_logits = teacher(ids, mask)
            student_logits = student(ids, mask)
            hard = F.cross_entropy(student_logits, labels)  # expect: DEV004
            loss = cfg.alpha * distill_term(student_logits, teacher_logits, cfg.temperature) + (1 - cfg.alpha) * hard
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
