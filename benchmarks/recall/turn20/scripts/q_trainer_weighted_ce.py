"""Fine-tune a small classifier with the HF Trainer, weighting the rare classes."""
from dataclasses import dataclass, field
from typing import List

import torch
import torch.nn as nn
from torch.utils.data import Dataset
from transformers import BertConfig, BertForSequenceClassification, Trainer, TrainingArguments


@dataclass
class RunConfig:
    num_labels: int = 3
    class_weights: List[float] = field(default_factory=lambda: [0.2, 1.0, 3.5])
    seq_len: int = 16
    output_dir: str = "out_weighted"


class ToyTextDataset(Dataset):
    def __init__(self, n, seq_len, num_labels, vocab=100):
        g = torch.Generator().manual_seed(0)
        self.ids = torch.randint(1, vocab, (n, seq_len), generator=g)
        self.labels = torch.randint(0, num_labels, (n,), generator=g)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "attention_mask": torch.ones_like(self.ids[i]), "labels": self.labels[i]}


class WeightedTrainer(Trainer):
    def __init__(self, *args, class_weights=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.loss_fct = nn.CrossEntropyLoss(weight=torch.tensor(class_weights, dtype=torch.float))  # expect: DEV012

    def compute_loss(self, model, inputs, return_outputs=False, **kwargs):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        logits = outputs.logits
        loss = self.loss_fct(logits.view(-1, self.model.config.num_labels), labels.view(-1))
        return (loss, outputs) if return_outputs else loss


def main():
    cfg = RunConfig()
    bert_cfg = BertConfig(vocab_size=100, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                          intermediate_size=64, num_labels=cfg.num_labels)
    model = BertForSequenceClassification(bert_cfg)
    args = TrainingArguments(output_dir=cfg.output_dir, per_device_train_batch_size=8, num_train_epochs=1,
                             logging_steps=5, report_to=[])
    trainer = WeightedTrainer(model=model, args=args,
                              train_dataset=ToyTextDataset(64, cfg.seq_len, cfg.num_labels),
                              class_weights=cfg.class_weights)
    trainer.train()


if __name__ == "__main__":
    main()
