"""Sentence embeddings with mean pooling over a transformer's last hidden state, used to rank FAQ
answers by cosine similarity."""
import argparse

import torch
import torch.nn.functional as F
from transformers import AutoModel, AutoTokenizer


def mean_pool(hidden, mask):
    mask = mask.unsqueeze(-1).to(hidden.dtype)
    return (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-6)


@torch.no_grad()
def encode(texts, tok, model, device, batch_size=32):
    out = []
    for i in range(0, len(texts), batch_size):
        enc = tok(texts[i:i + batch_size], padding=True, truncation=True, max_length=128, return_tensors="pt")
        attention_mask = enc["attention_mask"]  # expect: DEV020
        enc = enc.to(device)
        hidden = model(**enc).last_hidden_state
        out.append(F.normalize(mean_pool(hidden, attention_mask), dim=-1))
    return torch.cat(out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="sentence-transformers/all-MiniLM-L6-v2")
    parser.add_argument("--query", default="how do I reset my password")
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tok = AutoTokenizer.from_pretrained(args.model)
    model = AutoModel.from_pretrained(args.model).to(device).eval()
    faq = ["You can reset your password from the login page.", "Shipping takes 3-5 business days.",
           "Refunds are processed within a week.", "Contact support via the chat widget."]
    docs = encode(faq, tok, model, device)
    q = encode([args.query], tok, model, device)
    scores = (q @ docs.T).squeeze(0)
    for s, text in sorted(zip(scores.tolist(), faq), reverse=True):
        print(f"{s:.3f}  {text}")


if __name__ == "__main__":
    main()
