"""Fine-tune a small BERT classifier on an imbalanced intent dataset.

The data is heavily skewed towards the "other" intent, so we weight the
cross-entropy by inverse class frequency inside a Trainer subclass.
"""
import argparse
import random

import torch
import torch.nn as nn
from torch.utils.data import Dataset
from transformers import BertConfig, BertForSequenceClassification, Trainer, TrainingArguments

NUM_LABELS = 3
VOCAB = 200
SEQ_LEN = 16


class IntentDataset(Dataset):
    def __init__(self, n, seed=0):
        rng = random.Random(seed)
        self.items = []
        for _ in range(n):
            label = rng.choices([0, 1, 2], weights=[0.8, 0.15, 0.05])[0]
            ids = [rng.randrange(5, VOCAB) for _ in range(SEQ_LEN)]
            ids[0] = 1 + label  # make it learnable
            self.items.append({"input_ids": torch.tensor(ids), "attention_mask": torch.ones(SEQ_LEN, dtype=torch.long), "labels": torch.tensor(label)})

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


class WeightedLossTrainer(Trainer):
    def __init__(self, *args, class_weights=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.class_weights = class_weights

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        logits = outputs.logits
        loss_fct = nn.CrossEntropyLoss(weight=self.class_weights)  # expect: DEV012
        loss = loss_fct(logits.view(-1, NUM_LABELS), labels.view(-1))
        return (loss, outputs) if return_outputs else loss


def inverse_frequency(labels, num_labels):
    counts = torch.bincount(labels, minlength=num_labels).float().clamp(min=1)
    return counts.sum() / (num_labels * counts)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--output_dir", default="/tmp/intent-bert")
    parser.add_argument("--epochs", type=float, default=1.0)
    parser.add_argument("--bs", type=int, default=8)
    args = parser.parse_args()

    train_ds = IntentDataset(128, seed=0)
    eval_ds = IntentDataset(32, seed=1)
    train_labels = torch.stack([ex["labels"] for ex in train_ds.items])
    class_weights = inverse_frequency(train_labels, NUM_LABELS)
    print("class weights:", class_weights.tolist())

    config = BertConfig(vocab_size=VOCAB, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                        intermediate_size=64, max_position_embeddings=64, num_labels=NUM_LABELS)
    model = BertForSequenceClassification(config)

    training_args = TrainingArguments(
        output_dir=args.output_dir,
        per_device_train_batch_size=args.bs,
        per_device_eval_batch_size=args.bs,
        num_train_epochs=args.epochs,
        eval_strategy="epoch",
        logging_steps=5,
        report_to=[],
    )
    trainer = WeightedLossTrainer(
        model=model,
        args=training_args,
        train_dataset=train_ds,
        eval_dataset=eval_ds,
        class_weights=class_weights,
    )
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
