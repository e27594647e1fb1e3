"""Supervised fine-tuning of a causal LM with a LoRA adapter (PEFT).

Only response tokens are trained on (prompt tokens are -100 in labels). The
loss is computed here rather than inside the model so that response tokens
can be re-weighted per example.

    python l_peft_sft_loss.py --model ./my-base-model --load-in-4bit
    python l_peft_sft_loss.py            # tiny random GPT-2, for a dry run
"""
import argparse

import torch
import torch.nn.functional as F
from peft import LoraConfig, get_peft_model, prepare_model_for_kbit_training
from tokenizers import Tokenizer, models, pre_tokenizers
from torch.utils.data import DataLoader
from transformers import (AutoModelForCausalLM, AutoTokenizer, BitsAndBytesConfig, GPT2Config,
                          GPT2LMHeadModel, PreTrainedTokenizerFast)

EXAMPLES = [
    ("translate to french : cat", "chat"),
    ("translate to french : dog", "chien"),
    ("translate to french : house", "maison"),
    ("translate to french : water", "eau"),
    ("translate to french : bread", "pain"),
    ("translate to french : book", "livre"),
    ("translate to french : tree", "arbre"),
    ("translate to french : car", "voiture"),
] * 8


def tiny_tokenizer():
    words = sorted({w for p, r in EXAMPLES for w in (p + " " + r).split()})
    vocab = {"<pad>": 0, "<unk>": 1, "<eos>": 2, "###": 3}
    for w in words:
        vocab.setdefault(w, len(vocab))
    tok = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", unk_token="<unk>",
                                   eos_token="<eos>")


def load_base(args):
    if args.model is None:
        tok = tiny_tokenizer()
        cfg = GPT2Config(vocab_size=len(tok), n_positions=64, n_embd=64, n_layer=2, n_head=4,
                         bos_token_id=tok.eos_token_id, eos_token_id=tok.eos_token_id,
                         pad_token_id=tok.pad_token_id)
        return tok, GPT2LMHeadModel(cfg), ["c_attn"]
    tok = AutoTokenizer.from_pretrained(args.model)
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token
    if args.load_in_4bit:
        bnb = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4",
                                 bnb_4bit_compute_dtype=torch.bfloat16, bnb_4bit_use_double_quant=True)
        model = AutoModelForCausalLM.from_pretrained(args.model, quantization_config=bnb, device_map="auto")
        model = prepare_model_for_kbit_training(model, use_gradient_checkpointing=True)
    else:
        model = AutoModelForCausalLM.from_pretrained(args.model, torch_dtype=torch.bfloat16)
    return tok, model, ["q_proj", "k_proj", "v_proj", "o_proj"]


def make_collate(tok, max_len=48):
    def collate(rows):
        ids, labels = [], []
        for prompt, response in rows:
            p = tok(prompt + " ###", add_special_tokens=False)["input_ids"]
            r = tok(response, add_special_tokens=False)["input_ids"] + [tok.eos_token_id]
            ids.append((p + r)[:max_len])
            labels.append(([-100] * len(p) + r)[:max_len])
        width = max(map(len, ids))
        batch_ids = torch.full((len(rows), width), tok.pad_token_id)
        batch_labels = torch.full((len(rows), width), -100)
        attn = torch.zeros((len(rows), width), dtype=torch.long)
        for i, (a, b) in enumerate(zip(ids, labels)):
            batch_ids[i, : len(a)] = torch.tensor(a)
            batch_labels[i, : len(b)] = torch.tensor(b)
            attn[i, : len(a)] = 1
        return {"input_ids": batch_ids, "attention_mask": attn, "labels": batch_labels}
    return collate


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default=None)
    ap.add_argument("--load-in-4bit", action="store_true")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--lora-r", type=int, default=8)
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tok, model, target_modules = load_base(args)
    lora = LoraConfig(r=args.lora_r, lora_alpha=2 * args.lora_r, lora_dropout=0.05,
                      target_modules=target_modules, task_type="CAUSAL_LM",
                      fan_in_fan_out=args.model is None)
    model = get_peft_model(model, lora)
    if not args.load_in_4bit:
        model.to(device)  # a 4-bit model is already placed by device_map
    model.print_trainable_parameters()

    loader = DataLoader(EXAMPLES, batch_size=8, shuffle=True, collate_fn=make_collate(tok))
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=args.lr)
    use_bf16 = device.type == "cuda"

    model.train()
    for epoch in range(args.epochs):
        for step, batch in enumerate(loader):
            labels = batch.pop("labels")
            batch = {k: v.to(device) for k, v in batch.items()}
            with torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=use_bf16):
                logits = model(**batch).logits
            shift_logits = logits[:, :-1].float()
            shift_labels = labels[:, 1:]
            loss = F.cross_entropy(shift_logits.reshape(-1, shift_logits.size(-1)), shift_labels.reshape(-1), ignore_index=-100)  # expect: DEV004
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")

    model.save_pretrained("sft-lora-adapter")


if __name__ == "__main__":
    main()
