"""Multi-target regression with a Trainer subclass that standardises the labels in compute_loss."""
import numpy as np
import torch
import torch.nn.functional as F
from datasets import Dataset
from transformers import AutoModelForSequenceClassification, AutoTokenizer, Trainer, TrainingArguments


class ScaledRegressionTrainer(Trainer):
    def __init__(self, *args, target_stats=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.target_mean = torch.tensor(target_stats["mean"], dtype=torch.float32)  # expect: DEV006
        self.target_std = torch.tensor(target_stats["std"], dtype=torch.float32)  # expect: DEV006

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        scaled = (labels - self.target_mean) / self.target_std
        loss = F.smooth_l1_loss(outputs.logits, scaled)
        return (loss, outputs) if return_outputs else loss


def main():
    name = "prajjwal1/bert-tiny"
    tok = AutoTokenizer.from_pretrained(name)
    model = AutoModelForSequenceClassification.from_pretrained(name, num_labels=2, problem_type="regression")
    rng = np.random.default_rng(0)
    y = rng.normal([3.0, 120.0], [1.0, 30.0], size=(64, 2)).astype("float32")
    ds = Dataset.from_dict({"text": [f"listing {i}" for i in range(64)], "labels": y.tolist()})
    ds = ds.map(lambda b: tok(b["text"], padding="max_length", max_length=16, truncation=True), batched=True)
    stats = {"mean": y.mean(0).tolist(), "std": y.std(0).tolist()}
    args = TrainingArguments("out_reg", per_device_train_batch_size=8, num_train_epochs=1, report_to=[])
    ScaledRegressionTrainer(model=model, args=args, train_dataset=ds, target_stats=stats).train()


if __name__ == "__main__":
    main()
