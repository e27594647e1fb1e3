"""Regression head fine-tuning with a Trainer subclass that adds an explicit L2 penalty on the
new head's weights inside compute_loss (the penalty accumulator is a 1-element CPU tensor)."""
import argparse

import torch
import torch.nn.functional as F
from datasets import Dataset
from transformers import AutoModelForSequenceClassification, AutoTokenizer, Trainer, TrainingArguments


class PenalisedTrainer(Trainer):
    def __init__(self, *args, l2=1e-3, **kwargs):
        super().__init__(*args, **kwargs)
        self.l2 = l2

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        mse = F.mse_loss(outputs.logits.squeeze(-1), labels)
        penalty = torch.zeros(1)  # expect: DEV006
        for name, p in model.named_parameters():
            if name.startswith("classifier") and p.requires_grad:
                penalty = penalty + p.pow(2).sum()
        loss = mse + self.l2 * penalty.squeeze()
        return (loss, outputs) if return_outputs else loss


def build_dataset(tok, n=256):
    texts = [f"review number {i} " + "great " * (i % 7) + "bad " * (i % 3) for i in range(n)]
    scores = [float(i % 7 - i % 3) for i in range(n)]
    ds = Dataset.from_dict({"text": texts, "labels": scores})
    return ds.map(lambda b: tok(b["text"], truncation=True, padding="max_length", max_length=32), batched=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="prajjwal1/bert-mini")
    parser.add_argument("--l2", type=float, default=1e-3)
    args = parser.parse_args()
    tok = AutoTokenizer.from_pretrained(args.model)
    model = AutoModelForSequenceClassification.from_pretrained(args.model, num_labels=1)
    ds = build_dataset(tok).train_test_split(test_size=0.2, seed=0)
    targs = TrainingArguments("out_l2", per_device_train_batch_size=16, num_train_epochs=3, report_to=[])
    trainer = PenalisedTrainer(model=model, args=targs, train_dataset=ds["train"], eval_dataset=ds["test"],
                               l2=args.l2)
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
