"""Small Gradio chat demo around a causal LM.

Set CHAT_MODEL_DIR to a saved HF model directory; without one, a tiny
randomly initialised GPT-2 and a word-level tokenizer are built so the UI can
be tried offline.
"""
import os

import gradio as gr
import torch
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import (AutoModelForCausalLM, AutoTokenizer, GPT2Config, GPT2LMHeadModel,
                          PreTrainedTokenizerFast)

MODEL_DIR = os.environ.get("CHAT_MODEL_DIR", "")
MAX_CONTEXT = 256
SYSTEM = "You are a helpful assistant."
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def build_demo_tokenizer():
    words = ("you are a helpful assistant user bot hello hi how can i help today what is the "
             "weather like it sunny rainy thanks bye").split()
    vocab = {"[PAD]": 0, "[UNK]": 1, "[EOS]": 2, ":": 3, ".": 4, "?": 5}
    for w in words:
        vocab.setdefault(w, len(vocab))
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                   eos_token="[EOS]")


def load():
    if MODEL_DIR and os.path.isdir(MODEL_DIR):
        tok = AutoTokenizer.from_pretrained(MODEL_DIR)
        lm = AutoModelForCausalLM.from_pretrained(MODEL_DIR, torch_dtype=torch.float16)
    else:
        tok = build_demo_tokenizer()
        lm = GPT2LMHeadModel(GPT2Config(vocab_size=len(tok), n_positions=MAX_CONTEXT, n_embd=64,
                                        n_layer=2, n_head=4, pad_token_id=tok.pad_token_id,
                                        bos_token_id=tok.eos_token_id, eos_token_id=tok.eos_token_id))
    return tok, lm.to(device).eval()


tokenizer, model = load()


def build_prompt(history, message):
    lines = [SYSTEM]
    for user_msg, bot_msg in history:
        lines.append(f"user : {user_msg}")
        lines.append(f"bot : {bot_msg}")
    lines.append(f"user : {message}")
    lines.append("bot :")
    return " ".join(lines)


@torch.no_grad()
def respond(message, history, max_new_tokens=24, temperature=0.8):
    prompt = build_prompt(history, message)
    enc = tokenizer(prompt, return_tensors="pt", truncation=True, max_length=MAX_CONTEXT - max_new_tokens)
    input_ids = enc["input_ids"]  # expect: DEV020
    enc = enc.to(device)
    out = model.generate(
        input_ids,
        attention_mask=enc["attention_mask"],
        max_new_tokens=max_new_tokens,
        do_sample=True,
        temperature=temperature,
        top_p=0.9,
        pad_token_id=tokenizer.pad_token_id,
    )
    reply = tokenizer.decode(out[0, enc["input_ids"].shape[1]:], skip_special_tokens=True)
    return reply.strip() or "..."


demo = gr.ChatInterface(
    respond,
    title="tiny chat",
    additional_inputs=[
        gr.Slider(4, 64, value=24, step=1, label="max new tokens"),
        gr.Slider(0.1, 1.5, value=0.8, label="temperature"),
    ],
)

if __name__ == "__main__":
    demo.launch(server_name="127.0.0.1")
