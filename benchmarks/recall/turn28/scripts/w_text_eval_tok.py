"""Evaluate a fine-tuned sentiment classifier: tokenising collate_fn via functools.partial,
predictions gathered per batch, then accuracy and a confusion matrix in numpy."""
import argparse
import functools

import numpy as np
import torch
from torch.utils.data import DataLoader
from transformers import AutoModelForSequenceClassification, AutoTokenizer


def collate(batch, tokenizer, max_length):
    texts, labels = zip(*batch)
    enc = tokenizer(list(texts), padding=True, truncation=True, max_length=max_length, return_tensors="pt")
    return enc, torch.tensor(labels)


def load_examples():
    pos = ["a delight from start to finish", "sharp, funny and humane", "I would watch it again"]
    neg = ["a tedious mess", "the plot never comes together", "two hours I will not get back"]
    return [(t, 1) for t in pos] + [(t, 0) for t in neg]


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    preds, golds = [], []
    for enc, labels in loader:
        input_ids = enc["input_ids"]  # expect: DEV020
        enc = enc.to(device)
        out = model(input_ids=input_ids, attention_mask=enc["attention_mask"])
        preds.append(out.logits.argmax(dim=-1).cpu())
        golds.append(labels)
    return torch.cat(preds).numpy(), torch.cat(golds).numpy()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="distilbert-base-uncased-finetuned-sst-2-english")
    ap.add_argument("--max-length", type=int, default=64)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    tokenizer = AutoTokenizer.from_pretrained(args.model)
    model = AutoModelForSequenceClassification.from_pretrained(args.model).to(device)
    loader = DataLoader(load_examples(), batch_size=4,
                        collate_fn=functools.partial(collate, tokenizer=tokenizer, max_length=args.max_length))
    y_pred, y_true = evaluate(model, loader, device)
    cm = np.zeros((2, 2), dtype=int)
    np.add.at(cm, (y_true, y_pred), 1)
    print("accuracy", (y_pred == y_true).mean())
    print(cm)


if __name__ == "__main__":
    main()
