"""Token classification: a Trainer subclass whose prediction_step counts the labelled tokens."""
import torch
from transformers import Trainer


class SpanCountingTrainer(Trainer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.labelled_tokens = 0

    def prediction_step(self, model, inputs, prediction_loss_only, ignore_keys=None):
        inputs = self._prepare_inputs(inputs)
        with torch.no_grad():
            outputs = model(**inputs)
        loss = outputs.loss.detach()
        labels = inputs["labels"]
        valid = labels.numpy() != -100  # expect: DEV011
        self.labelled_tokens += int(valid.sum())
        if prediction_loss_only:
            return loss, None, None
        return loss, outputs.logits.argmax(-1), labels


if __name__ == "__main__":
    from datasets import Dataset
    from transformers import AutoModelForTokenClassification, TrainingArguments

    model = AutoModelForTokenClassification.from_pretrained("prajjwal1/bert-tiny", num_labels=5)
    ds = Dataset.from_dict({
        "input_ids": [[101, 2000 + i, 2001, 102] for i in range(16)],
        "attention_mask": [[1, 1, 1, 1]] * 16,
        "labels": [[-100, 1, 2, -100]] * 16,
    })
    trainer = SpanCountingTrainer(model=model, args=TrainingArguments("out_tok", report_to=[]), eval_dataset=ds)
    print(trainer.evaluate(), trainer.labelled_tokens)
