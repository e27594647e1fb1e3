"""HF generate() with beam search, a custom LogitsProcessor and a tiny in-memory tokenizer.

Correct look-alike, written from transformers "Casting to device inside of the Tokenizer"
(answer: tokenizer(text, return_tensors="pt").to(device)), "tokenizer.encode_plus returns
torch.tensors loaded on the desired device" and simalign "Inputs not converted to cuda
tensors when -device is cuda": the BatchEncoding is moved first and the tensors are read from
the moved encoding, and the processor builds its bias on scores.device.
"""
import torch
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import (GPT2Config, GPT2LMHeadModel, LogitsProcessor, LogitsProcessorList,
                          PreTrainedTokenizerFast)

LINES = [
    "red apples are sweet",
    "green apples are sour",
    "ripe bananas are sweet",
    "lemons are very sour",
    "red cherries are sweet",
]


class BannedWordsBias(LogitsProcessor):
    """Adds a large negative bias to banned token ids (e.g. words we never want to emit)."""

    def __init__(self, banned_ids, penalty=-1e4):
        self.banned_ids = list(banned_ids)
        self.penalty = penalty

    def __call__(self, input_ids, scores):
        bias = torch.zeros(scores.size(-1), device=scores.device, dtype=scores.dtype)
        bias[self.banned_ids] = self.penalty
        return scores + bias


def make_tokenizer():
    vocab = {"[PAD]": 0, "[UNK]": 1, "[EOS]": 2}
    for line in LINES:
        for w in line.split():
            vocab.setdefault(w, len(vocab))
    core = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    core.pre_tokenizer = pre_tokenizers.Whitespace()
    return PreTrainedTokenizerFast(tokenizer_object=core, pad_token="[PAD]", unk_token="[UNK]",
                                   eos_token="[EOS]", padding_side="left")


def main():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.manual_seed(0)
    tok = make_tokenizer()
    cfg = GPT2Config(vocab_size=len(tok), n_positions=32, n_embd=48, n_layer=2, n_head=4,
                     pad_token_id=tok.pad_token_id, eos_token_id=tok.eos_token_id)
    model = GPT2LMHeadModel(cfg).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=5e-3)

    train = tok([l + " [EOS]" for l in LINES], return_tensors="pt", padding=True).to(device)
    labels = train["input_ids"].masked_fill(train["attention_mask"] == 0, -100)
    for _ in range(40):
        loss = model(**train, labels=labels).loss
        opt.zero_grad()
        loss.backward()
        opt.step()

    model.eval()
    enc = tok(["red apples", "lemons are", "ripe"], return_tensors="pt", padding=True).to(device)
    input_ids = enc["input_ids"]
    processors = LogitsProcessorList([BannedWordsBias(tok.convert_tokens_to_ids(["sour"]))])
    with torch.no_grad():
        out = model.generate(input_ids=input_ids, attention_mask=enc["attention_mask"],
                             num_beams=3, max_new_tokens=4, logits_processor=processors,
                             pad_token_id=tok.pad_token_id, early_stopping=True)
    new_tokens = out[:, input_ids.shape[1]:]
    for prompt, cont in zip(tok.batch_decode(input_ids, skip_special_tokens=True),
                            tok.batch_decode(new_tokens, skip_special_tokens=True)):
        print(f"{prompt!r} -> {cont!r}")


if __name__ == "__main__":
    main()
