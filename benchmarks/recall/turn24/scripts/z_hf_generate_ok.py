"""Sample continuations with a causal LM; prompt tensors are read from the moved encoding."""
import argparse

import numpy as np
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model", default="gpt2")
    p.add_argument("--max-new-tokens", type=int, default=20)
    p.add_argument("--top-k", type=int, default=40)
    args = p.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    tok = AutoTokenizer.from_pretrained(args.model, padding_side="left")
    tok.pad_token = tok.pad_token or tok.eos_token
    model = AutoModelForCausalLM.from_pretrained(args.model).to(device).eval()

    prompts = ["Once upon a time", "The three laws of robotics are"]
    enc = tok(prompts, return_tensors="pt", padding=True).to(device)
    prompt_ids = enc["input_ids"]
    position_ids = (enc["attention_mask"].cumsum(-1) - 1).clamp(min=0)
    with torch.no_grad():
        first = model(**enc, position_ids=position_ids).logits[:, -1].softmax(-1)
        out = model.generate(**enc, do_sample=True, top_k=args.top_k, max_new_tokens=args.max_new_tokens,
                             output_scores=True, return_dict_in_generate=True, pad_token_id=tok.pad_token_id)
    new_tokens = out.sequences[:, prompt_ids.size(1):]
    labels = torch.cat([torch.full_like(prompt_ids, -100), new_tokens], dim=1)
    labels[labels == tok.pad_token_id] = -100

    probs = torch.stack(out.scores, dim=1).softmax(-1)
    token_probs = probs.gather(-1, new_tokens.unsqueeze(-1)).squeeze(-1).cpu().numpy()
    top_first = first.topk(5, dim=-1).indices.tolist()
    for i, text in enumerate(tok.batch_decode(new_tokens, skip_special_tokens=True)):
        print(repr(prompts[i]), "->", repr(text), "geo-mean p", float(np.exp(np.log(token_probs[i]).mean())))
        print("  likely first tokens:", tok.convert_ids_to_tokens(top_first[i]))
    print("supervised tokens", int((labels != -100).sum()))


if __name__ == "__main__":
    main()
