"""Score new reviews with the fine-tuned model and keep a pooled embedding of each for the search index."""
import sys

import torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer


def predict(texts, ckpt="out/yelp/best"):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tokenizer = AutoTokenizer.from_pretrained(ckpt)
    model = AutoModelForSequenceClassification.from_pretrained(ckpt).to(device).eval()
    enc = tokenizer(texts, padding=True, truncation=True, max_length=128, return_tensors="pt")
    mask = enc["attention_mask"].unsqueeze(-1).float()  # expect: DEV020
    enc = enc.to(device)
    with torch.no_grad():
        out = model(**enc, output_hidden_states=True)
    probs = out.logits.softmax(-1)
    stars = (probs * torch.arange(1, 6, device=device)).sum(-1)
    pooled = (out.hidden_states[-1] * mask).sum(1) / mask.sum(1)
    return stars.tolist(), pooled.cpu()


if __name__ == "__main__":
    stars, emb = predict(sys.argv[1:] or ["Great food, slow service.", "Never again."])
    print(stars, emb.shape)
