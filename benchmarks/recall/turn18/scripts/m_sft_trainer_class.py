"""Minimal supervised fine-tuning loop for a tiny causal LM (instruction -> response).

Prompt tokens are masked with -100 so only the response contributes to the loss.
"""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

PAD, BOS, SEP = 0, 1, 2


@dataclass
class SFTConfig:
    vocab_size: int = 300
    d_model: int = 64
    n_layer: int = 2
    lr: float = 5e-4
    epochs: int = 2
    batch_size: int = 8


class InstructionData(Dataset):
    def __init__(self, n=64, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.rows = []
        for _ in range(n):
            prompt = torch.randint(3, 300, (int(torch.randint(4, 10, (1,), generator=g)),), generator=g)
            resp = (prompt.flip(0) % 297) + 3
            ids = torch.cat([torch.tensor([BOS]), prompt, torch.tensor([SEP]), resp])
            labels = ids.clone()
            labels[: len(prompt) + 2] = -100
            self.rows.append((ids, labels))

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return self.rows[i]


def collate(rows):
    T = max(len(ids) for ids, _ in rows)
    input_ids = torch.full((len(rows), T), PAD)
    labels = torch.full((len(rows), T), -100)
    attention_mask = torch.zeros((len(rows), T), dtype=torch.long)
    for i, (ids, lab) in enumerate(rows):
        input_ids[i, : len(ids)] = ids
        labels[i, : len(lab)] = lab
        attention_mask[i, : len(ids)] = 1
    return {"input_ids": input_ids, "attention_mask": attention_mask, "labels": labels}


class CausalLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.emb = nn.Embedding(cfg.vocab_size, cfg.d_model, padding_idx=PAD)
        layer = nn.TransformerEncoderLayer(cfg.d_model, 4, 4 * cfg.d_model, batch_first=True, dropout=0.0)
        self.body = nn.TransformerEncoder(layer, cfg.n_layer)
        self.lm_head = nn.Linear(cfg.d_model, cfg.vocab_size)

    def forward(self, input_ids, attention_mask):
        T = input_ids.size(1)
        causal = torch.ones(T, T, dtype=torch.bool, device=input_ids.device).triu(1)
        h = self.body(self.emb(input_ids), mask=causal, src_key_padding_mask=attention_mask == 0, is_causal=True)
        return self.lm_head(h)


class SFTTrainer:
    def __init__(self, model, cfg, device):
        self.model = model
        self.cfg = cfg
        self.device = device
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)

    def train_step(self, batch):
        self.model.to(self.device)  # expect: DEV007
        self.model.train()
        input_ids = batch["input_ids"].to(self.device)
        attention_mask = batch["attention_mask"].to(self.device)
        logits = self.model(input_ids, attention_mask)
        V = self.cfg.vocab_size
        loss = F.cross_entropy(logits[:, :-1].reshape(-1, V), batch["labels"][:, 1:].reshape(-1), ignore_index=-100)  # expect: DEV004
        self.optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.optimizer.step()
        return loss.item()

    def fit(self, loader):
        for epoch in range(self.cfg.epochs):
            losses = [self.train_step(batch) for batch in loader]
            print(f"epoch {epoch}: mean loss {sum(losses) / len(losses):.3f}")


if __name__ == "__main__":
    cfg = SFTConfig()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    loader = DataLoader(InstructionData(), batch_size=cfg.batch_size, shuffle=True, collate_fn=collate)
    SFTTrainer(CausalLM(cfg), cfg, device).fit(loader)
