"""Score a batch of prompts under a small GPT-2 (prompt log-likelihood), then
continue them greedily; the word-level tokenizer is built on the spot.

Written from "[Bug Report] generate() device mismatch on CUDA machines:
input_tokens left on original device after input is moved" (TransformerLens#1508)
and "Expected all tensors to be on the same device ... (when checking argument for
argument index in method wrapper_CUDA__index_select)": the ids were taken out of
the BatchEncoding before `enc = enc.to(device)`, so the scoring forward pass gets
the CPU copy while the model sits on the GPU.
"""
import torch
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

WORDS = ("the a cat dog sat ran on under mat table quickly slowly and then it was "
         "red blue big small house garden").split()


def build_tokenizer():
    vocab = {"[PAD]": 0, "[UNK]": 1, "[EOS]": 2}
    vocab.update({w: i + 3 for i, w in enumerate(WORDS)})
    core = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    core.pre_tokenizer = pre_tokenizers.Whitespace()
    tok = PreTrainedTokenizerFast(tokenizer_object=core, pad_token="[PAD]",
                                  unk_token="[UNK]", eos_token="[EOS]")
    tok.padding_side = "left"
    return tok


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tokenizer = build_tokenizer()
    config = GPT2Config(vocab_size=len(tokenizer), n_positions=64, n_embd=32, n_layer=2, n_head=2,
                        pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id,
                        bos_token_id=tokenizer.eos_token_id)
    torch.manual_seed(0)
    model = GPT2LMHeadModel(config).to(device).eval()

    prompts = ["the cat sat on", "a big dog ran under the", "it was red and"]
    enc = tokenizer(prompts, return_tensors="pt", padding=True)
    prompt_ids = enc["input_ids"]  # expect: DEV020
    enc = enc.to(device)

    with torch.no_grad():
        logits = model(input_ids=prompt_ids, attention_mask=enc["attention_mask"]).logits  # also: DEV002
        token_logp = logits[:, :-1].log_softmax(-1).gather(-1, enc["input_ids"][:, 1:, None]).squeeze(-1)
        prompt_logp = (token_logp * enc["attention_mask"][:, 1:]).sum(-1)
        out = model.generate(
            **enc,
            max_new_tokens=6,
            do_sample=False,
            pad_token_id=tokenizer.pad_token_id,
            return_dict_in_generate=True,
            output_scores=True,
        )

    new_tokens = out.sequences[:, prompt_ids.shape[1]:]
    # per-token log-probs of the greedy choices; scores live on the model's device
    step_logp = torch.stack(out.scores, dim=1).log_softmax(dim=-1)
    chosen = step_logp.gather(-1, new_tokens.unsqueeze(-1)).squeeze(-1).sum(-1)
    for prompt, ids, lp, cont in zip(prompts, new_tokens, prompt_logp.cpu().tolist(), chosen.cpu().tolist()):
        text = tokenizer.decode(ids, skip_special_tokens=True)
        print(f"{prompt!r} (logp {lp:.2f}) -> {text!r} (logp {cont:.2f})")

if __name__ == "__main__":
    main()
