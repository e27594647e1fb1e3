# Multi-label tagging of support tickets with a tiny DistilBERT.
# Per-tag decision thresholds were tuned on last quarter's data; we apply them
# inside prediction_step so compute_metrics gets hard 0/1 predictions.
import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import Dataset
from transformers import DistilBertConfig, DistilBertForSequenceClassification, Trainer, TrainingArguments

TAGS = ["billing", "login", "bug", "feature", "refund"]
TUNED_THRESHOLDS = [0.45, 0.5, 0.35, 0.6, 0.4]


class TicketDataset(Dataset):
    def __init__(self, n, seq_len=24, vocab=300, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.input_ids = torch.randint(3, vocab, (n, seq_len), generator=g)
        self.labels = (torch.rand(n, len(TAGS), generator=g) > 0.7).float()

    def __len__(self):
        return self.input_ids.size(0)

    def __getitem__(self, i):
        return {"input_ids": self.input_ids[i], "attention_mask": torch.ones_like(self.input_ids[i]), "labels": self.labels[i]}


class MultiLabelTrainer(Trainer):
    def __init__(self, *args, thresholds=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.thresholds = torch.tensor(thresholds)  # expect: DEV006

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.get("labels")
        outputs = model(input_ids=inputs["input_ids"], attention_mask=inputs["attention_mask"])
        loss = F.binary_cross_entropy_with_logits(outputs.logits, labels)
        return (loss, outputs) if return_outputs else loss

    def prediction_step(self, model, inputs, prediction_loss_only, ignore_keys=None):
        inputs = self._prepare_inputs(inputs)
        with torch.no_grad():
            loss, outputs = self.compute_loss(model, inputs, return_outputs=True)
        if prediction_loss_only:
            return (loss.detach(), None, None)
        probs = torch.sigmoid(outputs.logits.detach())
        preds = (probs > self.thresholds).long()
        return (loss.detach(), preds, inputs["labels"])


def compute_metrics(eval_pred):
    preds, labels = eval_pred
    labels = labels.astype(np.int64)
    tp = (preds & labels).sum(0)
    precision = tp / np.maximum(preds.sum(0), 1)
    recall = tp / np.maximum(labels.sum(0), 1)
    f1 = 2 * precision * recall / np.maximum(precision + recall, 1e-8)
    return {"macro_f1": float(f1.mean())}


if __name__ == "__main__":
    cfg = DistilBertConfig(vocab_size=300, dim=32, n_layers=1, n_heads=2, hidden_dim=64,
                           max_position_embeddings=64, num_labels=len(TAGS),
                           problem_type="multi_label_classification")
    model = DistilBertForSequenceClassification(cfg)
    args = TrainingArguments(output_dir="/tmp/tickets", per_device_train_batch_size=16,
                             per_device_eval_batch_size=16, num_train_epochs=1, report_to=[],
                             logging_steps=4)
    trainer = MultiLabelTrainer(model=model, args=args, train_dataset=TicketDataset(96),
                                eval_dataset=TicketDataset(32, seed=1), compute_metrics=compute_metrics,
                                thresholds=TUNED_THRESHOLDS)
    trainer.train()
    print(trainer.evaluate())
