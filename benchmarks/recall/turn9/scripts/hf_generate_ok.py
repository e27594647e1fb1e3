"""Look-alike of hf_generate_mask_unmoved.py: the whole BatchEncoding is moved (in place) before
generate, and the decoded strings stay in Python.

Thread: https://github.com/fauxpilot/fauxpilot/pull/208 (calling .generate() with input_ids on a
device different from the model's).
"""
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tok = AutoTokenizer.from_pretrained("gpt2")
    tok.pad_token = tok.eos_token
    tok.padding_side = "left"
    model = AutoModelForCausalLM.from_pretrained("gpt2").to(device).eval()
    prompts = ["def fib(n):", "import torch\n"]
    enc = tok(prompts, return_tensors="pt", padding=True)
    enc.to(device)
    with torch.no_grad():
        out = model.generate(**enc, max_new_tokens=16, pad_token_id=tok.eos_token_id)
    new_tokens = out[:, enc["input_ids"].shape[1]:]
    print(tok.batch_decode(new_tokens, skip_special_tokens=True))


if __name__ == "__main__":
    main()
