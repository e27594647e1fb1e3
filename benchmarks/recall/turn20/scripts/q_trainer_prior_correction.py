"""Evaluate with logit adjustment: subtract log class priors from the logits at prediction time."""
import numpy as np
import torch
from torch.utils.data import Dataset
from transformers import BertConfig, BertForSequenceClassification, Trainer, TrainingArguments


class ToyDS(Dataset):
    def __init__(self, n, seq_len=12, vocab=80, num_labels=4):
        g = torch.Generator().manual_seed(3)
        self.x = torch.randint(1, vocab, (n, seq_len), generator=g)
        self.y = torch.randint(0, num_labels, (n,), generator=g)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return {"input_ids": self.x[i], "labels": self.y[i]}


class LogitAdjustedTrainer(Trainer):
    def __init__(self, *args, priors=None, tau=1.0, **kwargs):
        super().__init__(*args, **kwargs)
        self.log_prior = tau * torch.log(torch.tensor(priors, dtype=torch.float))  # expect: DEV006

    def prediction_step(self, model, inputs, prediction_loss_only, ignore_keys=None):
        inputs = self._prepare_inputs(inputs)
        labels = inputs.pop("labels")
        with torch.no_grad():
            logits = model(**inputs).logits
            logits = logits - self.log_prior
            loss = torch.nn.functional.cross_entropy(logits, labels)
        if prediction_loss_only:
            return loss, None, None
        return loss, logits, labels


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    return {"accuracy": float((np.argmax(logits, axis=-1) == labels).mean())}


def main():
    cfg = BertConfig(vocab_size=80, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                     intermediate_size=64, num_labels=4)
    model = BertForSequenceClassification(cfg)
    args = TrainingArguments(output_dir="out_la", per_device_eval_batch_size=8, report_to=[])
    trainer = LogitAdjustedTrainer(model=model, args=args, eval_dataset=ToyDS(32),
                                   compute_metrics=compute_metrics, priors=[0.55, 0.25, 0.15, 0.05])
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
