"""Batch completion with a causal LM from the hub: custom logits processor for a
no-repeat-ngram style penalty, then decode and write a JSONL file.

Usage: python q_hf_generate_penalty_ok.py --model distilgpt2 --prompts prompts.txt
"""
import argparse
import json

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer, LogitsProcessor, LogitsProcessorList


class PresencePenalty(LogitsProcessor):
    def __init__(self, penalty):
        self.penalty = penalty

    def __call__(self, input_ids, scores):
        seen = torch.zeros_like(scores, dtype=torch.bool)
        seen.scatter_(1, input_ids, True)
        return scores - self.penalty * seen.to(scores.dtype)


def read_prompts(path):
    with open(path) as fh:
        return [line.strip() for line in fh if line.strip()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="distilgpt2")
    ap.add_argument("--prompts", required=True)
    ap.add_argument("--out", default="completions.jsonl")
    ap.add_argument("--max-new-tokens", type=int, default=40)
    ap.add_argument("--presence-penalty", type=float, default=0.6)
    ap.add_argument("--batch-size", type=int, default=8)
    args = ap.parse_args()

    tokenizer = AutoTokenizer.from_pretrained(args.model, padding_side="left")
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = AutoModelForCausalLM.from_pretrained(args.model).to(device)
    model.eval()
    processors = LogitsProcessorList([PresencePenalty(args.presence_penalty)])

    prompts = read_prompts(args.prompts)
    with open(args.out, "w") as fh:
        for start in range(0, len(prompts), args.batch_size):
            chunk = prompts[start:start + args.batch_size]
            enc = tokenizer(chunk, return_tensors="pt", padding=True)
            enc = enc.to(model.device)
            input_ids = enc["input_ids"]
            with torch.no_grad():
                out = model.generate(
                    input_ids,
                    attention_mask=enc["attention_mask"],
                    max_new_tokens=args.max_new_tokens,
                    do_sample=True,
                    top_p=0.92,
                    logits_processor=processors,
                    pad_token_id=tokenizer.pad_token_id,
                )
            new_tokens = out[:, input_ids.shape[1]:]
            texts = tokenizer.batch_decode(new_tokens, skip_special_tokens=True)
            for prompt, text in zip(chunk, texts):
                fh.write(json.dumps({"prompt": prompt, "completion": text}) + "\n")
    print(f"wrote {len(prompts)} completions to {args.out}")


if __name__ == "__main__":
    main()
