"""Score a list of sentences with a causal LM (per-sentence perplexity), batched.

needs: transformers
"""
import argparse
import math

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer


def load(name, device):
    tok = AutoTokenizer.from_pretrained(name)
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token
    model = AutoModelForCausalLM.from_pretrained(name).to(device).eval()
    return tok, model


@torch.no_grad()
def batch_perplexity(texts, tok, model, device, max_length=128):
    enc = tok(texts, return_tensors="pt", padding=True, truncation=True, max_length=max_length)
    labels = enc["input_ids"].clone()  # expect: DEV020
    labels[enc["attention_mask"] == 0] = -100
    enc = enc.to(device)
    logits = model(**enc).logits
    shift_logits = logits[:, :-1].contiguous()
    shift_labels = labels[:, 1:].contiguous()
    loss = torch.nn.functional.cross_entropy(
        shift_logits.view(-1, shift_logits.size(-1)), shift_labels.view(-1),
        ignore_index=-100, reduction="none",
    ).view(shift_labels.shape)
    n_tokens = (shift_labels != -100).sum(1).clamp(min=1)
    nll = loss.sum(1) / n_tokens
    return [math.exp(v) for v in nll.tolist()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="gpt2")
    ap.add_argument("--batch-size", type=int, default=4)
    ap.add_argument("--file", default="")
    args = ap.parse_args()
    device = "cuda" if torch.cuda.is_available() else "cpu"
    tok, model = load(args.model, device)
    if args.file:
        with open(args.file) as fh:
            sentences = [line.strip() for line in fh if line.strip()]
    else:
        sentences = ["The cat sat on the mat.", "Colorless green ideas sleep furiously.",
                     "Stock prices rose sharply after the announcement.", "mat the on sat cat The"]
    scores = []
    for i in range(0, len(sentences), args.batch_size):
        scores.extend(batch_perplexity(sentences[i:i + args.batch_size], tok, model, device))
    for s, p in sorted(zip(sentences, scores), key=lambda t: t[1]):
        print(f"{p:10.2f}  {s}")


if __name__ == "__main__":
    main()
