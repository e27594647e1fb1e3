"""Correct look-alike: a head replaced before the move, an adapter built on the device after
it, a teacher copied after the move, a metric moved with the model, tokenizer fields read after
the encoding's move, and a dtype cast that keeps the device."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torchmetrics.classification import MulticlassF1Score
from transformers import AutoModel, AutoTokenizer


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    name = "prajjwal1/bert-tiny"
    tok = AutoTokenizer.from_pretrained(name)
    encoder = AutoModel.from_pretrained(name)
    encoder.pooler = nn.Identity()
    encoder.to(device)
    head = nn.Linear(encoder.config.hidden_size, 3).to(device)
    encoder.adapter = nn.Linear(encoder.config.hidden_size, encoder.config.hidden_size).to(device)
    teacher = copy.deepcopy(encoder).eval()
    f1 = MulticlassF1Score(num_classes=3).to(device)
    opt = torch.optim.AdamW(list(encoder.parameters()) + list(head.parameters()), lr=5e-5)
    texts = ["refund please", "where is my parcel", "great service", "cancel the order"] * 4
    labels = torch.tensor([0, 1, 2, 0] * 4)
    for step in range(3):
        enc = tok(texts, return_tensors="pt", padding=True).to(device)
        ids, mask = enc["input_ids"], enc["attention_mask"]
        hidden = encoder(input_ids=ids, attention_mask=mask).last_hidden_state
        hidden = hidden + encoder.adapter(hidden)
        pooled = (hidden * mask.unsqueeze(-1)).sum(1) / mask.sum(1, keepdim=True)
        with torch.no_grad():
            t_hidden = teacher(input_ids=ids, attention_mask=mask).last_hidden_state
        y = labels.to(device).type(torch.int64)
        logits = head(pooled)
        loss = F.cross_entropy(logits, y) + F.mse_loss(hidden, t_hidden)
        opt.zero_grad()
        loss.backward()
        opt.step()
        f1.update(logits.argmax(-1), y)
    print(f1.compute().item())


if __name__ == "__main__":
    main()
