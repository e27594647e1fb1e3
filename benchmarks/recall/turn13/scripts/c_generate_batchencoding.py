"""Batched HF generate() with left padding, top-k/top-p sampling and a tiny in-memory tokenizer.

Written from "`attention_mask` must be in the same device as model?" (transformers #31975),
the generate() warning "input_ids is on cpu, whereas the model is on cuda" (transformers-CFG
"Key error: 'Pretokenizers'") and lemonade's "Fix input_ids always on cpu issue": the
input_ids are pulled out of the BatchEncoding before the encoding is moved, so generate gets
the CPU copy.
"""
import torch
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

CORPUS = [
    "the cat sat on the mat",
    "the dog sat on the log",
    "a bird flew over the house",
    "the cat chased the bird",
    "a dog slept near the door",
]


def build_tokenizer(lines):
    vocab = {"[PAD]": 0, "[UNK]": 1, "[EOS]": 2}
    for line in lines:
        for word in line.split():
            vocab.setdefault(word, len(vocab))
    core = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    core.pre_tokenizer = pre_tokenizers.Whitespace()
    return PreTrainedTokenizerFast(tokenizer_object=core, pad_token="[PAD]", unk_token="[UNK]",
                                   eos_token="[EOS]", padding_side="left")


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    tokenizer = build_tokenizer(CORPUS)
    config = GPT2Config(vocab_size=len(tokenizer), n_positions=32, n_embd=48, n_layer=2, n_head=4,
                        pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id)
    model = GPT2LMHeadModel(config).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=5e-3)

    texts = [line + " [EOS]" for line in CORPUS]
    model.train()
    for epoch in range(30):
        batch = tokenizer(texts, return_tensors="pt", padding=True).to(device)
        labels = batch["input_ids"].masked_fill(batch["attention_mask"] == 0, -100)
        loss = model(**batch, labels=labels).loss
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"final train loss {loss.item():.3f}")

    model.eval()
    prompts = ["the cat", "a dog slept", "the bird flew over"]
    enc = tokenizer(prompts, return_tensors="pt", padding=True)
    input_ids = enc["input_ids"]  # expect: DEV020
    enc = enc.to(device)
    with torch.no_grad():
        out = model.generate(  # also: DEV002
            input_ids=input_ids,
            attention_mask=enc["attention_mask"],
            max_new_tokens=6,
            do_sample=True,
            top_k=10,
            top_p=0.95,
            pad_token_id=tokenizer.pad_token_id,
        )
    for prompt, text in zip(prompts, tokenizer.batch_decode(out, skip_special_tokens=True)):
        print(f"{prompt!r} -> {text!r}")


if __name__ == "__main__":
    main()
