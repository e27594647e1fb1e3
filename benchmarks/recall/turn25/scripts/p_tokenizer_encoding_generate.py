"""Batch summarisation of support tickets with a seq2seq model; summaries are
written to a JSONL file with the number of generated tokens.

    python p_tokenizer_encoding_generate.py --model google/flan-t5-small tickets.txt
"""
import argparse
import json

import torch
from transformers import AutoModelForSeq2SeqLM, AutoTokenizer


def batched(items, n):
    for i in range(0, len(items), n):
        yield items[i : i + n]


@torch.no_grad()
def summarise(model, tokenizer, texts, device, max_new_tokens=48, num_beams=4):
    enc = tokenizer(
        ["summarize: " + t for t in texts],
        return_tensors="pt",
        padding=True,
        truncation=True,
        max_length=512,
    )
    input_ids = enc["input_ids"]  # expect: DEV020
    enc = enc.to(device)
    out = model.generate(
        input_ids=input_ids,
        attention_mask=enc["attention_mask"],
        max_new_tokens=max_new_tokens,
        num_beams=num_beams,
        early_stopping=True,
    )
    summaries = tokenizer.batch_decode(out, skip_special_tokens=True)
    lengths = (out != tokenizer.pad_token_id).sum(dim=1).tolist()
    return list(zip(summaries, lengths))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("inputs", nargs="?", default=None)
    parser.add_argument("--model", default="google/flan-t5-small")
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--out", default="summaries.jsonl")
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    if args.inputs:
        with open(args.inputs) as fh:
            texts = [line.strip() for line in fh if line.strip()]
    else:
        texts = ["My invoice shows two charges for the same month and support has not replied in a week."]

    tokenizer = AutoTokenizer.from_pretrained(args.model)
    model = AutoModelForSeq2SeqLM.from_pretrained(args.model).to(device).eval()
    with open(args.out, "w") as fh:
        for chunk in batched(texts, args.batch_size):
            for text, (summary, n_tokens) in zip(chunk, summarise(model, tokenizer, chunk, device)):
                fh.write(json.dumps({"text": text, "summary": summary, "tokens": n_tokens}) + "\n")


if __name__ == "__main__":
    main()
