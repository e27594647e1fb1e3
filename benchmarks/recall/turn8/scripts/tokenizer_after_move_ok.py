"""Encoding moved first; ids taken from it afterwards; the prompt length read as a Python int.

Look-alike of tokenizer_ids_before_to.py. Thread: https://github.com/TransformerLensOrg/TransformerLens/issues/1508
"""
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer


def summarize(texts):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tok = AutoTokenizer.from_pretrained("gpt2")
    tok.pad_token = tok.eos_token
    lm = AutoModelForCausalLM.from_pretrained("gpt2").to(device)
    enc = tok([t + "\nTL;DR:" for t in texts], return_tensors="pt", padding=True)
    n_prompt = enc["input_ids"].shape[1]
    enc = enc.to(device)
    out = lm.generate(input_ids=enc["input_ids"], attention_mask=enc["attention_mask"], max_new_tokens=20)
    return tok.batch_decode(out[:, n_prompt:], skip_special_tokens=True)
