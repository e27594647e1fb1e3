"""Batched sampling from a padded prompt batch: the attention mask grows by one column per step."""
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer


def sample(model, tokenizer, prompts, max_new_tokens=40, temperature=0.8, top_k=50):
    device = model.device
    enc = tokenizer(prompts, return_tensors="pt", padding=True).to(device)
    input_ids, attention_mask = enc["input_ids"], enc["attention_mask"]
    past = None
    cur = input_ids
    for _ in range(max_new_tokens):
        position_ids = (attention_mask.cumsum(-1) - 1).clamp(min=0)[:, -cur.size(1):]
        out = model(input_ids=cur, attention_mask=attention_mask, position_ids=position_ids,
                    past_key_values=past, use_cache=True)
        past = out.past_key_values
        logits = out.logits[:, -1, :] / temperature
        kth = torch.topk(logits, top_k).values[:, -1, None]
        logits = logits.masked_fill(logits < kth, float("-inf"))
        cur = torch.multinomial(logits.softmax(-1), num_samples=1)
        input_ids = torch.cat([input_ids, cur], dim=-1)
        attention_mask = torch.cat([attention_mask, torch.ones(attention_mask.size(0), 1, dtype=attention_mask.dtype)], dim=-1)  # expect: DEV006
    return tokenizer.batch_decode(input_ids, skip_special_tokens=True)


if __name__ == "__main__":
    tok = AutoTokenizer.from_pretrained("gpt2", padding_side="left")
    tok.pad_token = tok.eos_token
    lm = AutoModelForCausalLM.from_pretrained("gpt2").to("cuda" if torch.cuda.is_available() else "cpu")
    for line in sample(lm, tok, ["The capital of France is", "def fibonacci(n):"]):
        print(line)
