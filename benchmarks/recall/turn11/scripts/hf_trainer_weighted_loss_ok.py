"""Look-alike of hf_trainer_class_weights.py and hf_generate_ids_before_to.py: compute_loss
moves the class weights to the logits' device, and the prediction helper takes the input ids
out of the encoding after the encoding has moved.

Thread: https://github.com/huggingface/transformers/issues/7024 (class weights for the loss:
subclass Trainer and override compute_loss, with the weights where the logits are).
"""
from collections import Counter

import torch
import torch.nn as nn
from datasets import Dataset
from transformers import (AutoModelForSequenceClassification, AutoTokenizer, Trainer,
                          TrainingArguments)

CHECKPOINT = "prajjwal1/bert-tiny"


class WeightedTrainer(Trainer):
    def __init__(self, *args, class_weights=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.class_weights = torch.tensor(class_weights, dtype=torch.float32)

    def compute_loss(self, model, inputs, return_outputs=False, **kwargs):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        logits = outputs.logits
        loss_fct = nn.CrossEntropyLoss(weight=self.class_weights.to(logits.device))
        loss = loss_fct(logits.view(-1, logits.size(-1)), labels.view(-1))
        return (loss, outputs) if return_outputs else loss


@torch.no_grad()
def predict(model, tokenizer, texts):
    enc = tokenizer(texts, return_tensors="pt", padding=True).to(model.device)
    input_ids = enc["input_ids"]
    logits = model(input_ids=input_ids, attention_mask=enc["attention_mask"]).logits
    return logits.argmax(-1).cpu().numpy()


def main():
    texts = ([f"what is my balance on account {i}" for i in range(60)]
             + [f"send {i} dollars to my sister" for i in range(30)]
             + [f"someone used my card in city {i}" for i in range(6)])
    labels = [0] * 60 + [1] * 30 + [2] * 6
    counts = Counter(labels)
    weights = [len(labels) / (3 * counts[c]) for c in range(3)]
    tokenizer = AutoTokenizer.from_pretrained(CHECKPOINT)
    model = AutoModelForSequenceClassification.from_pretrained(CHECKPOINT, num_labels=3)
    ds = Dataset.from_dict({"text": texts, "label": labels}).map(
        lambda b: tokenizer(b["text"], truncation=True, padding="max_length", max_length=24),
        batched=True)
    args = TrainingArguments("out_intents", per_device_train_batch_size=16, num_train_epochs=2,
                             learning_rate=5e-4, report_to=[], save_strategy="no")
    trainer = WeightedTrainer(model=model, args=args, train_dataset=ds, class_weights=weights)
    trainer.train()
    print(predict(trainer.model, tokenizer, ["my card was stolen", "how much money do I have"]))


if __name__ == "__main__":
    main()
