"""Keep an exponential moving average of the weights while the HF Trainer runs.

Usage: python m_trainer_ema_callback.py --decay 0.99
"""
import argparse
import copy

import torch
from torch.utils.data import Dataset
from transformers import (
    RobertaConfig,
    RobertaForSequenceClassification,
    Trainer,
    TrainerCallback,
    TrainingArguments,
)


class ToyPairs(Dataset):
    def __init__(self, n=64, seq_len=20, vocab=150, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randint(4, vocab, (n, seq_len), generator=g)
        self.y = (self.x[:, 1] % 2).long()

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return {"input_ids": self.x[i], "attention_mask": torch.ones_like(self.x[i]), "labels": self.y[i]}


class EMACallback(TrainerCallback):
    """Shadow copy of the model updated after every optimizer step."""

    def __init__(self, model, decay=0.999):
        self.decay = decay
        self.shadow = copy.deepcopy(model)  # expect: DEV016
        self.shadow.eval()
        for p in self.shadow.parameters():
            p.requires_grad_(False)

    def on_step_end(self, args, state, control, model=None, **kwargs):
        with torch.no_grad():
            for ema_p, p in zip(self.shadow.parameters(), model.parameters()):
                ema_p.lerp_(p.detach(), 1.0 - self.decay)

    def on_train_end(self, args, state, control, **kwargs):
        self.shadow.save_pretrained(f"{args.output_dir}/ema")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--decay", type=float, default=0.99)
    ap.add_argument("--out", default="/tmp/ema-roberta")
    opts = ap.parse_args()

    config = RobertaConfig(vocab_size=150, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                           intermediate_size=64, max_position_embeddings=40, num_labels=2)
    model = RobertaForSequenceClassification(config)
    ema = EMACallback(model, decay=opts.decay)

    args = TrainingArguments(output_dir=opts.out, per_device_train_batch_size=8, num_train_epochs=2,
                             learning_rate=5e-4, logging_steps=2, save_strategy="no", report_to=[])
    trainer = Trainer(model=model, args=args, train_dataset=ToyPairs(), callbacks=[ema])
    trainer.train()


if __name__ == "__main__":
    main()
