"""Sample continuations with a causal LM and score them with the prompt masked out."""
import argparse

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model", default="gpt2")
    p.add_argument("--max-new-tokens", type=int, default=20)
    p.add_argument("--top-p", type=float, default=0.9)
    args = p.parse_args()
    device = "cuda" if torch.cuda.is_available() else "cpu"

    tok = AutoTokenizer.from_pretrained(args.model, padding_side="left")
    tok.pad_token = tok.pad_token or tok.eos_token
    model = AutoModelForCausalLM.from_pretrained(args.model).to(device).eval()

    prompts = ["The weather in Paris today is", "A good name for a cat would be"]
    enc = tok(prompts, return_tensors="pt", padding=True)
    prompt_ids = enc["input_ids"]  # expect: DEV020
    enc = enc.to(device)
    with torch.no_grad():
        out = model.generate(**enc, do_sample=True, top_p=args.top_p, max_new_tokens=args.max_new_tokens,
                             output_scores=True, return_dict_in_generate=True, pad_token_id=tok.pad_token_id)
    seqs = out.sequences
    new_tokens = seqs[:, prompt_ids.size(1):]

    labels = torch.cat([torch.full_like(prompt_ids, -100), new_tokens], dim=1)
    labels[labels == tok.pad_token_id] = -100
    attn = torch.cat([enc["attention_mask"], torch.ones_like(new_tokens)], dim=1)
    with torch.no_grad():
        nll = model(input_ids=seqs, attention_mask=attn, labels=labels).loss

    probs = torch.stack(out.scores, dim=1).softmax(-1)
    token_probs = probs.gather(-1, new_tokens.unsqueeze(-1)).squeeze(-1).numpy()  # expect: DEV011
    for i, text in enumerate(tok.batch_decode(new_tokens, skip_special_tokens=True)):
        print(repr(prompts[i]), "->", repr(text), "min p", float(token_probs[i].min()))
    print("mean nll of continuations", nll.item())


if __name__ == "__main__":
    main()
