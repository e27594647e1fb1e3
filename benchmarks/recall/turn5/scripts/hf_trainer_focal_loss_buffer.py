"""Intent classification with a Trainer subclass whose compute_loss uses a focal loss module with
per-class alpha kept as a buffer (the loss module lives on the Trainer, not on the model)."""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from datasets import load_dataset
from transformers import AutoModelForSequenceClassification, AutoTokenizer, Trainer, TrainingArguments


class FocalLoss(nn.Module):
    def __init__(self, alpha, gamma=2.0):
        super().__init__()
        self.register_buffer("alpha", alpha)
        self.gamma = gamma

    def forward(self, logits, target):
        logp = F.log_softmax(logits, dim=-1)
        logp_t = logp.gather(1, target[:, None]).squeeze(1)
        p_t = logp_t.exp()
        return (-self.alpha[target] * (1 - p_t) ** self.gamma * logp_t).mean()


class FocalTrainer(Trainer):
    def __init__(self, *args, class_counts=None, gamma=2.0, **kwargs):
        super().__init__(*args, **kwargs)
        counts = torch.tensor(class_counts, dtype=torch.float32)
        alpha = counts.sum() / (len(counts) * counts)
        self.focal = FocalLoss(alpha, gamma)  # expect: DEV012

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        loss = self.focal(outputs.logits, labels)
        return (loss, outputs) if return_outputs else loss


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="distilbert-base-uncased")
    parser.add_argument("--epochs", type=float, default=2)
    parser.add_argument("--gamma", type=float, default=2.0)
    args = parser.parse_args()

    ds = load_dataset("banking77")
    tok = AutoTokenizer.from_pretrained(args.model)
    ds = ds.map(lambda b: tok(b["text"], truncation=True, max_length=64), batched=True)
    ds = ds.rename_column("label", "labels")
    n_labels = 77
    counts = np.bincount(ds["train"]["labels"], minlength=n_labels).clip(min=1)

    model = AutoModelForSequenceClassification.from_pretrained(args.model, num_labels=n_labels)
    targs = TrainingArguments("out_focal", num_train_epochs=args.epochs, per_device_train_batch_size=32,
                              eval_strategy="epoch", report_to=[])
    trainer = FocalTrainer(model=model, args=targs, train_dataset=ds["train"], eval_dataset=ds["test"],
                           tokenizer=tok, class_counts=counts.tolist(), gamma=args.gamma)
    trainer.train()


if __name__ == "__main__":
    main()
