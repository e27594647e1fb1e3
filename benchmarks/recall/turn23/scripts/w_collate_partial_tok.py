"""Sentence-pair relevance classifier: mean-pooled encoder + linear head; tokenisation happens in a
collate_fn bound with functools.partial."""
from functools import partial

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader
from transformers import AutoModel, AutoTokenizer

MODEL = "sentence-transformers/all-MiniLM-L6-v2"

PAIRS = [
    {"query": "reset password", "passage": "To reset your password open settings.", "label": 1},
    {"query": "reset password", "passage": "Our office is closed on Sundays.", "label": 0},
    {"query": "refund policy", "passage": "Refunds are issued within 14 days.", "label": 1},
    {"query": "refund policy", "passage": "The app supports dark mode.", "label": 0},
] * 4


def pair_collate(examples, tokenizer, max_length):
    enc = tokenizer(
        [e["query"] for e in examples],
        [e["passage"] for e in examples],
        padding=True, truncation=True, max_length=max_length, return_tensors="pt",
    )
    enc["labels"] = torch.tensor([e["label"] for e in examples])
    return enc


def mean_pool(hidden, mask):
    mask = mask.unsqueeze(-1).to(hidden.dtype)
    return (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-6)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tokenizer = AutoTokenizer.from_pretrained(MODEL)
    encoder = AutoModel.from_pretrained(MODEL).to(device)
    head = nn.Linear(encoder.config.hidden_size, 2).to(device)
    optimizer = torch.optim.AdamW(list(encoder.parameters()) + list(head.parameters()), lr=2e-5)

    loader = DataLoader(PAIRS, batch_size=4, shuffle=True,
                        collate_fn=partial(pair_collate, tokenizer=tokenizer, max_length=64))
    encoder.train()
    for epoch in range(2):
        for enc in loader:
            labels = enc.pop("labels").to(device)
            attention_mask = enc["attention_mask"]  # expect: DEV020
            enc = enc.to(device)
            hidden = encoder(**enc).last_hidden_state
            logits = head(mean_pool(hidden, attention_mask))
            loss = F.cross_entropy(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
