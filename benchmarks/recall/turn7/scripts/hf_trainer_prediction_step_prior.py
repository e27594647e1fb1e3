"""Evaluation with a prior correction: prediction_step is overridden to subtract log class
priors (estimated on the training split) from the logits before they are returned."""
import math

import torch
from datasets import Dataset
from transformers import AutoModelForSequenceClassification, AutoTokenizer, Trainer, TrainingArguments


class PriorCorrectedTrainer(Trainer):
    def __init__(self, *args, priors=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.log_priors = torch.tensor([math.log(p) for p in priors])  # expect: DEV006

    def prediction_step(self, model, inputs, prediction_loss_only, ignore_keys=None):
        inputs = self._prepare_inputs(inputs)
        labels = inputs.get("labels")
        with torch.no_grad():
            outputs = model(**inputs)
        logits = outputs.logits - self.log_priors
        return (outputs.loss.detach(), logits, labels)


def main():
    name = "prajjwal1/bert-tiny"
    tok = AutoTokenizer.from_pretrained(name)
    texts = ["spam offer now", "meeting at noon", "win a prize", "lunch tomorrow", "see you"] * 30
    labels = [1, 0, 1, 0, 0] * 30
    ds = Dataset.from_dict({"text": texts, "labels": labels})
    ds = ds.map(lambda b: tok(b["text"], padding="max_length", max_length=8, truncation=True), batched=True)
    model = AutoModelForSequenceClassification.from_pretrained(name, num_labels=2)
    args = TrainingArguments("out_prior", per_device_eval_batch_size=32, report_to=[])
    trainer = PriorCorrectedTrainer(model=model, args=args, eval_dataset=ds, priors=[0.6, 0.4])
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
