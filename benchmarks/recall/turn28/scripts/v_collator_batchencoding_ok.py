"""Evaluate a fine-tuned NLI model with a custom collator that pads with the
tokenizer and returns the BatchEncoding (labels included)."""
import argparse

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader
from transformers import AutoModelForSequenceClassification, AutoTokenizer


class PairCollator:
    def __init__(self, tokenizer, max_length=128):
        self.tokenizer = tokenizer
        self.max_length = max_length

    def __call__(self, rows):
        enc = self.tokenizer([r["premise"] for r in rows], [r["hypothesis"] for r in rows],
                             truncation=True, max_length=self.max_length,
                             padding=True, return_tensors="pt")
        enc["labels"] = torch.tensor([r["label"] for r in rows])
        return enc


def toy_rows(n):
    rng = np.random.default_rng(0)
    subjects = ["a dog", "the chef", "two kids", "a pilot"]
    rows = []
    for _ in range(n):
        s = subjects[rng.integers(len(subjects))]
        y = int(rng.integers(3))
        hyp = [f"{s} is outside", f"{s} is asleep", f"nobody is there"][y]
        rows.append({"premise": f"{s} runs in the park", "hypothesis": hyp, "label": y})
    return rows


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    total_loss, all_preds, all_labels = 0.0, [], []
    for enc in loader:
        enc = enc.to(device)
        labels = enc.pop("labels")
        out = model(**enc)
        total_loss += F.cross_entropy(out.logits, labels, reduction="sum").item()
        all_preds.append(out.logits.argmax(-1).cpu().numpy())
        all_labels.append(labels.cpu().numpy())
    preds, gold = np.concatenate(all_preds), np.concatenate(all_labels)
    return total_loss / len(gold), float((preds == gold).mean())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="cross-encoder/nli-deberta-v3-xsmall")
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--no-cuda", action="store_true")
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")

    tok = AutoTokenizer.from_pretrained(args.model)
    model = AutoModelForSequenceClassification.from_pretrained(args.model).to(device)
    loader = DataLoader(toy_rows(64), batch_size=args.batch_size, collate_fn=PairCollator(tok))
    loss, acc = evaluate(model, loader, device)
    print(f"loss {loss:.4f}  acc {acc:.3f}")


if __name__ == "__main__":
    main()
