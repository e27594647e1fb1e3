"""Supervised fine-tuning of a tiny GPT-2 with a peft LoRA adapter and a response-only loss.

Written from the trl/peft threads "Expected all tensors to be on the same device, but found
at least two devices, cuda:0 and cpu!" (SFTTrainer / custom loops) and "Cannot generate w/
do_sample=True on a LoRA model": the labels with the prompt masked out stay on the CPU while
the shifted logits are on the GPU, and the sanity-check prompt is pinned to "cuda" in a
script that otherwise falls back to the CPU.
"""
import random

import torch
import torch.nn.functional as F
from peft import LoraConfig, get_peft_model
from torch.utils.data import DataLoader, Dataset
from transformers import GPT2Config, GPT2LMHeadModel

PAD, BOS, SEP, EOS = 0, 1, 2, 3
VOCAB = 96


class PromptResponseSet(Dataset):
    """Synthetic "instruction -> response" pairs: the response reverses the prompt."""

    def __init__(self, n=128, seed=0):
        rng = random.Random(seed)
        self.items = []
        for _ in range(n):
            prompt = [rng.randrange(4, VOCAB) for _ in range(rng.randint(3, 8))]
            self.items.append((prompt, list(reversed(prompt))))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        prompt, response = self.items[i]
        ids = [BOS] + prompt + [SEP] + response + [EOS]
        labels = [-100] * (len(prompt) + 2) + response + [EOS]
        return ids, labels


def collate(batch):
    width = max(len(ids) for ids, _ in batch)
    input_ids = torch.full((len(batch), width), PAD, dtype=torch.long)
    labels = torch.full((len(batch), width), -100, dtype=torch.long)
    attention_mask = torch.zeros((len(batch), width), dtype=torch.long)
    for i, (ids, lab) in enumerate(batch):
        input_ids[i, : len(ids)] = torch.tensor(ids)
        labels[i, : len(lab)] = torch.tensor(lab)
        attention_mask[i, : len(ids)] = 1
    return {"input_ids": input_ids, "attention_mask": attention_mask, "labels": labels}


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)

    config = GPT2Config(vocab_size=VOCAB, n_positions=64, n_embd=64, n_layer=2, n_head=4,
                        bos_token_id=BOS, eos_token_id=EOS, pad_token_id=PAD)
    base = GPT2LMHeadModel(config)
    lora_cfg = LoraConfig(r=8, lora_alpha=16, lora_dropout=0.05, target_modules=["c_attn"],
                          fan_in_fan_out=True, task_type="CAUSAL_LM")
    model = get_peft_model(base, lora_cfg)
    model.print_trainable_parameters()
    model.to(device)

    loader = DataLoader(PromptResponseSet(), batch_size=16, shuffle=True, collate_fn=collate)
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=3e-3)

    model.train()
    for epoch in range(3):
        total = 0.0
        for batch in loader:
            input_ids = batch["input_ids"].to(device)
            attention_mask = batch["attention_mask"].to(device)
            labels = batch["labels"]
            out = model(input_ids=input_ids, attention_mask=attention_mask)
            shift_logits = out.logits[:, :-1].contiguous()
            shift_labels = labels[:, 1:].contiguous()
            loss = F.cross_entropy(shift_logits.view(-1, VOCAB), shift_labels.view(-1), ignore_index=-100)  # expect: DEV004
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total / len(loader):.3f}")

    model.eval()
    prompt = torch.tensor([[BOS, 10, 20, 30, SEP]], device="cuda")  # expect: DEV001
    with torch.no_grad():
        gen = model.generate(input_ids=prompt, attention_mask=torch.ones_like(prompt),
                             max_new_tokens=5, do_sample=False, pad_token_id=PAD)
    print("generated:", gen[0].tolist())
    model.save_pretrained("sft_lora_adapter")


if __name__ == "__main__":
    main()
