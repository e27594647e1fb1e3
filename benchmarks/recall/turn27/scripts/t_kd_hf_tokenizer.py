"""Distil a fine-tuned BERT sentiment classifier into DistilBERT (Hugging Face)."""
import argparse
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers import AutoModelForSequenceClassification, AutoTokenizer

TEXTS = ["great movie, would watch again", "dull and far too long", "the cast was wonderful",
         "I walked out halfway", "a solid, enjoyable film", "boring plot, bad acting"]
LABELS = [1, 0, 1, 0, 1, 0]


def batches(n, bs):
    idx = list(range(n))
    random.shuffle(idx)
    for i in range(0, n, bs):
        yield idx[i:i + bs]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--teacher", default="textattack/bert-base-uncased-SST-2")
    ap.add_argument("--student", default="distilbert-base-uncased")
    ap.add_argument("--temperature", type=float, default=2.0)
    ap.add_argument("--alpha", type=float, default=0.5)
    ap.add_argument("--epochs", type=int, default=2)
    args = ap.parse_args()
    device = "cuda" if torch.cuda.is_available() else "cpu"

    tok = AutoTokenizer.from_pretrained(args.student)
    teacher = AutoModelForSequenceClassification.from_pretrained(args.teacher).to(device).eval()
    student = AutoModelForSequenceClassification.from_pretrained(args.student, num_labels=2).to(device)
    criterion = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 1.5]))  # expect: DEV012
    opt = torch.optim.AdamW(student.parameters(), lr=5e-5)

    for epoch in range(args.epochs):
        for ids in batches(len(TEXTS), 3):
            enc = tok([TEXTS[i] for i in ids], padding=True, truncation=True, return_tensors="pt")
            input_ids = enc["input_ids"]  # expect: DEV020
            enc = enc.to(device)
            labels = torch.tensor([LABELS[i] for i in ids], device=device)
            with torch.no_grad():
                t_logits = teacher(**enc).logits
            s_logits = student(input_ids=input_ids, attention_mask=enc["attention_mask"]).logits
            T = args.temperature
            soft = F.kl_div(F.log_softmax(s_logits / T, -1), F.softmax(t_logits / T, -1),
                            reduction="batchmean") * T * T
            loss = args.alpha * soft + (1 - args.alpha) * criterion(s_logits, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: {loss.item():.4f}")
    student.save_pretrained("distilled-student")


if __name__ == "__main__":
    main()
