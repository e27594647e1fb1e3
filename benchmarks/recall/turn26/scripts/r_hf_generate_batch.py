"""Batch generation with a causal LM from the Hub: left padding, several prompts per batch, outputs to a JSONL file."""
import argparse
import json

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer


def chunks(items, n):
    for i in range(0, len(items), n):
        yield items[i : i + n]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="gpt2")
    ap.add_argument("--prompts", default="prompts.txt")
    ap.add_argument("--out", default="generations.jsonl")
    ap.add_argument("--batch-size", type=int, default=8)
    ap.add_argument("--max-new-tokens", type=int, default=64)
    args = ap.parse_args()

    tokenizer = AutoTokenizer.from_pretrained(args.model)
    tokenizer.padding_side = "left"
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    model = AutoModelForCausalLM.from_pretrained(args.model, torch_dtype=torch.float16).to("cuda")  # expect: DEV001
    model.eval()

    with open(args.prompts) as f:
        prompts = [line.strip() for line in f if line.strip()]

    with open(args.out, "w") as out_f, torch.inference_mode():
        for batch_prompts in chunks(prompts, args.batch_size):
            enc = tokenizer(batch_prompts, return_tensors="pt", padding=True)
            input_ids = enc["input_ids"]  # expect: DEV020
            enc = enc.to(model.device)
            out = model.generate(
                input_ids=input_ids,
                attention_mask=enc["attention_mask"],
                max_new_tokens=args.max_new_tokens,
                do_sample=True,
                top_p=0.9,
                pad_token_id=tokenizer.pad_token_id,
            )
            texts = tokenizer.batch_decode(out[:, input_ids.shape[1] :], skip_special_tokens=True)
            for p, t in zip(batch_prompts, texts):
                out_f.write(json.dumps({"prompt": p, "completion": t}) + "\n")


if __name__ == "__main__":
    main()
