"""Trainer with a class-weighted loss; weights follow the logits to wherever they are."""
import torch
import torch.nn.functional as F
from torch.utils.data import Dataset
from transformers import BertConfig, BertForSequenceClassification, Trainer, TrainingArguments

LABEL_COUNTS = [900, 80, 20]


class ToyTextDataset(Dataset):
    def __init__(self, n, seq_len=16, vocab=100):
        g = torch.Generator().manual_seed(1)
        self.ids = torch.randint(1, vocab, (n, seq_len), generator=g)
        self.labels = torch.randint(0, len(LABEL_COUNTS), (n,), generator=g)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "attention_mask": torch.ones_like(self.ids[i]), "labels": self.labels[i]}


class WeightedTrainer(Trainer):
    def __init__(self, *args, label_counts=None, **kwargs):
        super().__init__(*args, **kwargs)
        counts = torch.tensor(label_counts, dtype=torch.float)
        self.class_weights = counts.sum() / (len(counts) * counts)

    def compute_loss(self, model, inputs, return_outputs=False, **kwargs):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        logits = outputs.logits
        weight = self.class_weights.to(logits.device)
        loss = F.cross_entropy(logits, labels, weight=weight)
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
    bert_cfg = BertConfig(vocab_size=100, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                          intermediate_size=64, num_labels=len(LABEL_COUNTS))
    model = BertForSequenceClassification(bert_cfg)
    args = TrainingArguments(output_dir="out_weighted_ok", per_device_train_batch_size=8,
                             per_device_eval_batch_size=8, num_train_epochs=1, report_to=[])
    trainer = WeightedTrainer(model=model, args=args, train_dataset=ToyTextDataset(64),
                              eval_dataset=ToyTextDataset(16), label_counts=LABEL_COUNTS)
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
