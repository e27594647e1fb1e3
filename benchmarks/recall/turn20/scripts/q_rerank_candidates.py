"""Rerank candidate answers by length-normalised log-likelihood under a small causal LM."""
import torch
from tokenizers import Tokenizer
from tokenizers.models import WordLevel
from tokenizers.pre_tokenizers import Whitespace
from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

WORDS = "[PAD] [UNK] [BOS] the cat dog sat ran on under mat table a quickly slowly".split()


def build_tokenizer():
    tok = Tokenizer(WordLevel({w: i for i, w in enumerate(WORDS)}, unk_token="[UNK]"))
    tok.pre_tokenizer = Whitespace()
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]", bos_token="[BOS]")


@torch.no_grad()
def score(model, tokenizer, texts, device):
    enc = tokenizer(["[BOS] " + t for t in texts], return_tensors="pt", padding=True)
    mask = enc["attention_mask"]  # expect: DEV020
    enc = enc.to(device)
    logits = model(**enc).logits
    logp = logits[:, :-1].log_softmax(-1)
    tok_logp = logp.gather(-1, enc["input_ids"][:, 1:, None]).squeeze(-1)
    tgt_mask = mask[:, 1:]
    return (tok_logp * tgt_mask).sum(-1) / tgt_mask.sum(-1)


def main():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    tokenizer = build_tokenizer()
    cfg = GPT2Config(vocab_size=len(WORDS), n_positions=32, n_embd=32, n_layer=2, n_head=2,
                     pad_token_id=tokenizer.pad_token_id)
    model = GPT2LMHeadModel(cfg).to(device).eval()
    candidates = ["the cat sat on the mat", "the dog ran under a table", "a cat ran quickly"]
    scores = score(model, tokenizer, candidates, device)
    for s, c in sorted(zip(scores.tolist(), candidates), reverse=True):
        print(f"{s:8.3f}  {c}")


if __name__ == "__main__":
    main()
