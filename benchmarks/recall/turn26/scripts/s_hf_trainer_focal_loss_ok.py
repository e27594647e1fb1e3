"""Fine-tune a sequence classifier with a focal loss and label masking (HF Trainer)."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from datasets import Dataset
from transformers import (AutoModelForSequenceClassification, AutoTokenizer,
                          DataCollatorWithPadding, Trainer, TrainingArguments)


class FocalLoss(nn.Module):
    def __init__(self, alpha, gamma=2.0):
        super().__init__()
        self.register_buffer("alpha", torch.tensor(alpha, dtype=torch.float32))
        self.gamma = gamma

    def forward(self, logits, target):
        logp = F.log_softmax(logits, dim=-1)
        logp_t = logp.gather(1, target[:, None]).squeeze(1)
        p_t = logp_t.exp()
        a_t = self.alpha.to(logits.device)[target]
        return (-a_t * (1 - p_t) ** self.gamma * logp_t).mean()


class FocalTrainer(Trainer):
    def __init__(self, *args, alpha=None, disabled_labels=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.focal = FocalLoss(alpha)
        self.disabled_labels = list(disabled_labels)

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        logits = outputs.logits
        if self.disabled_labels:
            keep = torch.ones(logits.size(-1), device=logits.device)
            keep[self.disabled_labels] = 0.0
            logits = logits.masked_fill(keep == 0, -1e4)
        loss = self.focal(logits, labels)
        return (loss, outputs) if return_outputs else loss

    def prediction_step(self, model, inputs, prediction_loss_only, ignore_keys=None):
        inputs = self._prepare_inputs(inputs)
        labels = inputs.get("labels")
        with torch.no_grad():
            loss, outputs = self.compute_loss(model, dict(inputs), return_outputs=True)
        if prediction_loss_only:
            return loss.detach(), None, None
        return loss.detach(), outputs.logits.detach(), labels


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model", default="distilbert-base-uncased")
    p.add_argument("--out", default="focal_out")
    p.add_argument("--epochs", type=int, default=1)
    args = p.parse_args()

    texts = ["great product", "awful", "meh", "would buy again", "broke in a day", "fine"] * 8
    labels = [2, 0, 1, 2, 0, 1] * 8
    tok = AutoTokenizer.from_pretrained(args.model)
    ds = Dataset.from_dict({"text": texts, "label": labels})
    ds = ds.map(lambda b: tok(b["text"], truncation=True), batched=True, remove_columns=["text"])
    ds = ds.rename_column("label", "labels")

    model = AutoModelForSequenceClassification.from_pretrained(args.model, num_labels=4)
    targs = TrainingArguments(args.out, num_train_epochs=args.epochs,
                              per_device_train_batch_size=8, report_to=[])
    trainer = FocalTrainer(model=model, args=targs, train_dataset=ds, eval_dataset=ds,
                           data_collator=DataCollatorWithPadding(tok),
                           alpha=[0.5, 1.0, 1.0, 0.0], disabled_labels=[3])
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
