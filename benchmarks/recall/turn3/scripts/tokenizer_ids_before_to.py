"""Batch inference with a causal LM: ids taken from the encoding before the encoding is moved."""
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer


def complete(prompts, model_name="Qwen/Qwen2.5-0.5B-Instruct", max_new_tokens=64):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    tokenizer = AutoTokenizer.from_pretrained(model_name, padding_side="left")
    model = AutoModelForCausalLM.from_pretrained(model_name, torch_dtype=torch.bfloat16).to(device)
    enc = tokenizer(prompts, return_tensors="pt", padding=True)
    input_ids = enc["input_ids"]  # expect: DEV020
    enc = enc.to(device)
    with torch.no_grad():
        out = model.generate(input_ids=input_ids, attention_mask=enc["attention_mask"],  # also: DEV002
                             max_new_tokens=max_new_tokens, do_sample=False)
    return tokenizer.batch_decode(out[:, input_ids.shape[1]:], skip_special_tokens=True)


if __name__ == "__main__":
    for answer in complete(["What is 2 + 2?", "Name a prime number larger than 10."]):
        print(answer)
