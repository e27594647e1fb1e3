"""Summarisation demo: the prompt's ids are kept for slicing off the prompt afterwards, then the
encoding is moved and generate is called.

Thread: https://github.com/TransformerLensOrg/TransformerLens/issues/1508 (input_tokens bound to the
original input before input = input.to(device)); https://github.com/huggingface/peft/issues/81.
"""
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer


def summarize(texts):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tok = AutoTokenizer.from_pretrained("gpt2")
    tok.pad_token = tok.eos_token
    lm = AutoModelForCausalLM.from_pretrained("gpt2").to(device)
    enc = tok([t + "\nTL;DR:" for t in texts], return_tensors="pt", padding=True)
    prompt_ids = enc.input_ids  # expect: DEV020
    enc.to(device)
    out = lm.generate(input_ids=prompt_ids, attention_mask=enc.attention_mask, max_new_tokens=20)
    return tok.batch_decode(out[:, prompt_ids.shape[1]:], skip_special_tokens=True)
