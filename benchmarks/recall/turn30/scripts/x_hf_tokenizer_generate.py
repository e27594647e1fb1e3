"""Sample several completions per prompt with a causal LM and report completion lengths."""
import argparse
import json

import numpy as np
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer


def batched(items, n):
    for i in range(0, len(items), n):
        yield items[i:i + n]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="gpt2")
    ap.add_argument("--prompts", default="prompts.jsonl")
    ap.add_argument("--batch-size", type=int, default=8)
    ap.add_argument("--max-new-tokens", type=int, default=64)
    ap.add_argument("--temperature", type=float, default=0.7)
    ap.add_argument("--top-k", type=int, default=50)
    ap.add_argument("--out", default="samples.jsonl")
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tok = AutoTokenizer.from_pretrained(args.model)
    tok.padding_side = "left"
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token
    model = AutoModelForCausalLM.from_pretrained(args.model).to(device).eval()

    with open(args.prompts) as fh:
        prompts = [json.loads(line)["prompt"] for line in fh]

    records, all_lengths = [], []
    for chunk in batched(prompts, args.batch_size):
        enc = tok(chunk, return_tensors="pt", padding=True)
        prompt_len = enc["input_ids"].shape[1]
        input_ids = enc["input_ids"]  # expect: DEV020
        enc = enc.to(device)
        with torch.no_grad():
            out = model.generate(input_ids=input_ids, attention_mask=enc["attention_mask"],
                                 do_sample=True, temperature=args.temperature, top_k=args.top_k,
                                 max_new_tokens=args.max_new_tokens, pad_token_id=tok.pad_token_id)
        new_tokens = out[:, prompt_len:]
        lengths = (new_tokens != tok.pad_token_id).sum(-1).numpy()  # expect: DEV011
        all_lengths.extend(lengths.tolist())
        for prompt, text, n in zip(chunk, tok.batch_decode(new_tokens, skip_special_tokens=True), lengths):
            records.append({"prompt": prompt, "completion": text, "new_tokens": int(n)})

    with open(args.out, "w") as fh:
        for r in records:
            fh.write(json.dumps(r) + "\n")
    print(f"{len(records)} samples, mean length {np.mean(all_lengths):.1f}")


if __name__ == "__main__":
    main()
