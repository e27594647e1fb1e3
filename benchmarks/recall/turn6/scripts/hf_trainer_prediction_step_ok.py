"""Correct look-alike: a Trainer subclass with class weights made where the logits are and
NumPy post-processing after a copy to the host in prediction_step."""
from collections import Counter

import numpy as np
import torch
import torch.nn.functional as F
from datasets import Dataset
from transformers import AutoModelForSequenceClassification, AutoTokenizer, Trainer, TrainingArguments


class CalibratedTrainer(Trainer):
    def __init__(self, *args, label_counts=None, temperature=1.5, **kwargs):
        super().__init__(*args, **kwargs)
        total = sum(label_counts.values())
        self.inv_freq = [total / label_counts[k] for k in sorted(label_counts)]
        self.temperature = temperature

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        weight = torch.tensor(self.inv_freq, device=outputs.logits.device)
        loss = F.cross_entropy(outputs.logits, labels, weight=weight)
        return (loss, outputs) if return_outputs else loss

    def prediction_step(self, model, inputs, prediction_loss_only, ignore_keys=None):
        inputs = self._prepare_inputs(inputs)
        labels = inputs.get("labels")
        with torch.no_grad():
            outputs = model(**inputs)
        if prediction_loss_only:
            return outputs.loss.detach(), None, None
        scaled = outputs.logits.detach().cpu().numpy() / self.temperature
        probs = np.exp(scaled) / np.exp(scaled).sum(-1, keepdims=True)
        return outputs.loss.detach(), torch.from_numpy(probs), labels


def main():
    name = "prajjwal1/bert-tiny"
    tok = AutoTokenizer.from_pretrained(name)
    texts = [f"please {w} my card" for w in ["block", "renew", "block", "block"] * 50]
    labels = [int(t.split()[1] == "renew") for t in texts]
    ds = Dataset.from_dict({"text": texts, "labels": labels})
    ds = ds.map(lambda b: tok(b["text"], padding="max_length", max_length=12, truncation=True), batched=True)
    split = ds.train_test_split(test_size=0.2, seed=0)
    model = AutoModelForSequenceClassification.from_pretrained(name, num_labels=2)
    args = TrainingArguments("out_cal", per_device_train_batch_size=16, num_train_epochs=1, report_to=[])
    trainer = CalibratedTrainer(model=model, args=args, train_dataset=split["train"], eval_dataset=split["test"],
                                label_counts=Counter(labels))
    trainer.train()
    print(trainer.predict(split["test"]).predictions[:3])


if __name__ == "__main__":
    main()
