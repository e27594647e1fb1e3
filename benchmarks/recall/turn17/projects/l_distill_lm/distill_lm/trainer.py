import os

import torch
import torch.nn as nn
import torch.nn.functional as F

from .data import move_to_device
from .evaluation import perplexity


def soft_target_kl(student_logits, teacher_logits, temperature):
    t = temperature
    return F.kl_div(F.log_softmax(student_logits / t, dim=-1), F.log_softmax(teacher_logits / t, dim=-1),
                    reduction="batchmean", log_target=True) * t * t


class DistillTrainer:
    def __init__(self, cfg, student, teacher):
        self.cfg = cfg
        self.device = torch.device(cfg.device)
        self.teacher = teacher.to(self.device)
        self.student = student.to(self.device)
        # the student is narrower than the teacher: project its hidden states up for the MSE term
        self.student.hidden_proj = nn.Linear(cfg.student_dim, cfg.teacher_dim)  # expect: DEV015
        self.optimizer = torch.optim.AdamW(self.student.parameters(), lr=cfg.lr, weight_decay=0.01)

    def step(self, batch):
        batch = move_to_device(batch, self.device)
        with torch.no_grad():
            t_logits, t_hidden = self.teacher(batch["input_ids"])
        s_logits, s_hidden = self.student(batch["input_ids"])

        vocab = s_logits.size(-1)
        ce = F.cross_entropy(s_logits.reshape(-1, vocab), batch["labels"].reshape(-1))
        kd = soft_target_kl(s_logits.reshape(-1, vocab), t_logits.reshape(-1, vocab), self.cfg.temperature)
        hid = F.mse_loss(self.student.hidden_proj(s_hidden), t_hidden)
        loss = (1 - self.cfg.alpha_kd) * ce + self.cfg.alpha_kd * kd + self.cfg.alpha_hidden * hid

        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        nn.utils.clip_grad_norm_(self.student.parameters(), self.cfg.grad_clip)
        self.optimizer.step()
        return {"loss": loss.item(), "ce": ce.item(), "kd": kd.item(), "hidden": hid.item()}

    def fit(self, train_loader, val_loader):
        for epoch in range(self.cfg.epochs):
            self.student.train()
            logs = [self.step(b) for b in train_loader]
            mean = {k: sum(d[k] for d in logs) / len(logs) for k in logs[0]}
            print(f"epoch {epoch}: " + " ".join(f"{k}={v:.3f}" for k, v in mean.items())
                  + f" val_ppl={perplexity(self.student, val_loader):.2f}")
        os.makedirs(self.cfg.out_dir, exist_ok=True)
        torch.save(self.student.state_dict(), os.path.join(self.cfg.out_dir, "student_lm.pt"))
