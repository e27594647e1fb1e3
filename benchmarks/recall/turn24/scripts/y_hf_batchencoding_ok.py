"""Fine-tune a sequence classifier on a few labelled sentences.

needs: transformers
BatchEncoding.to() moves the tensors it holds and returns itself, so the bare
`enc.to(device)` below is enough; input_ids/attention_mask are read from it afterwards.
"""
import argparse

import torch
from torch.utils.data import DataLoader
from transformers import AutoModelForSequenceClassification, AutoTokenizer

TRAIN = [("great movie, loved it", 1), ("terrible plot and acting", 0), ("a joy from start to end", 1),
         ("I walked out after an hour", 0), ("would watch again", 1), ("boring and far too long", 0)]


def make_collate(tokenizer, max_length):
    def collate(rows):
        texts = [t for t, _ in rows]
        enc = tokenizer(texts, padding=True, truncation=True, max_length=max_length, return_tensors="pt")
        enc["labels"] = torch.tensor([lab for _, lab in rows])
        return enc
    return collate


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="distilbert-base-uncased")
    ap.add_argument("--epochs", type=int, default=2)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    tokenizer = AutoTokenizer.from_pretrained(args.model)
    model = AutoModelForSequenceClassification.from_pretrained(args.model, num_labels=2).to(device)
    loader = DataLoader(TRAIN, batch_size=3, shuffle=True, collate_fn=make_collate(tokenizer, 32))
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)

    model.train()
    for epoch in range(args.epochs):
        for enc in loader:
            enc.to(device)
            labels = enc.pop("labels")
            out = model(input_ids=enc["input_ids"], attention_mask=enc["attention_mask"])
            loss = torch.nn.functional.cross_entropy(out.logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")

    model.eval()
    test = tokenizer(["what a wonderful film", "a waste of time"], padding=True, return_tensors="pt")
    test = test.to(device)
    with torch.no_grad():
        probs = model(**test).logits.softmax(-1).cpu().numpy()
    print(probs.round(3))


if __name__ == "__main__":
    main()
