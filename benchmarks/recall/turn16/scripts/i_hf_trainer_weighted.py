"""Imbalanced intent classification with the HF Trainer: class-weighted loss in
compute_loss and logit adjustment by the label prior at prediction time.

A small bag-of-embeddings model and a whitespace vocabulary keep it offline.
"""
import random
import tempfile
from collections import Counter

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset
from transformers import Trainer, TrainingArguments

INTENTS = ["greeting", "refund", "cancel", "fraud"]
TEMPLATES = {
    "greeting": ["hi there", "hello how are you", "good morning team"],
    "refund": ["i want my money back", "please refund my order", "refund the last payment"],
    "cancel": ["cancel my subscription", "stop the plan now", "please cancel the order"],
    "fraud": ["someone used my card", "unknown charge on my card"],
}
PROPORTIONS = [0.5, 0.3, 0.15, 0.05]


class WhitespaceTokenizer:
    def __init__(self, texts):
        words = sorted({w for t in texts for w in t.split()})
        self.vocab = {"[PAD]": 0, "[UNK]": 1, **{w: i + 2 for i, w in enumerate(words)}}

    def encode(self, text):
        return [self.vocab.get(w, 1) for w in text.split()]


class IntentDataset(Dataset):
    def __init__(self, n, tokenizer, seed):
        rnd = random.Random(seed)
        self.rows = []
        for _ in range(n):
            label = rnd.choices(range(len(INTENTS)), weights=PROPORTIONS)[0]
            text = rnd.choice(TEMPLATES[INTENTS[label]])
            self.rows.append({"input_ids": tokenizer.encode(text), "labels": label})

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return self.rows[i]


def pad_collator(features):
    max_len = max(len(f["input_ids"]) for f in features)
    ids = torch.zeros(len(features), max_len, dtype=torch.long)
    mask = torch.zeros(len(features), max_len, dtype=torch.long)
    for i, f in enumerate(features):
        ids[i, : len(f["input_ids"])] = torch.tensor(f["input_ids"])
        mask[i, : len(f["input_ids"])] = 1
    return {"input_ids": ids, "attention_mask": mask,
            "labels": torch.tensor([f["labels"] for f in features])}


class BagOfEmbeddings(nn.Module):
    def __init__(self, vocab_size, dim, num_labels):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.head = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, num_labels))

    def forward(self, input_ids, attention_mask):
        h = self.emb(input_ids) * attention_mask.unsqueeze(-1)
        pooled = h.sum(1) / attention_mask.sum(1, keepdim=True).clamp(min=1)
        return {"logits": self.head(pooled)}


class WeightedTrainer(Trainer):
    def __init__(self, *args, class_weights=None, label_prior=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.class_weights = torch.tensor(class_weights, dtype=torch.float)
        self.log_prior = torch.log(torch.tensor(label_prior, dtype=torch.float))  # expect: DEV006

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        logits = outputs["logits"]
        loss_fct = nn.CrossEntropyLoss(weight=self.class_weights)  # expect: DEV012
        loss = loss_fct(logits.view(-1, logits.size(-1)), labels.view(-1))
        return (loss, outputs) if return_outputs else loss

    def prediction_step(self, model, inputs, prediction_loss_only, ignore_keys=None):
        inputs = self._prepare_inputs(inputs)
        labels = inputs["labels"]
        with torch.no_grad():
            loss, outputs = self.compute_loss(model, dict(inputs), return_outputs=True)
        if prediction_loss_only:
            return loss.detach(), None, None
        # balanced-error decision rule: subtract log prior from the logits
        adjusted = outputs["logits"] - self.log_prior
        return loss.detach(), adjusted, labels


def compute_metrics(eval_pred):
    preds = np.argmax(eval_pred.predictions, axis=-1)
    labels = eval_pred.label_ids
    recalls = [float((preds[labels == c] == c).mean()) for c in np.unique(labels)]
    return {"accuracy": float((preds == labels).mean()), "balanced_accuracy": float(np.mean(recalls))}


def main():
    all_texts = [t for ts in TEMPLATES.values() for t in ts]
    tok = WhitespaceTokenizer(all_texts)
    train_ds = IntentDataset(400, tok, seed=0)
    eval_ds = IntentDataset(100, tok, seed=1)

    counts = Counter(r["labels"] for r in train_ds.rows)
    freq = np.array([counts.get(c, 1) for c in range(len(INTENTS))], dtype=np.float64)
    prior = freq / freq.sum()
    weights = (1.0 / prior) / (1.0 / prior).sum() * len(INTENTS)

    args = TrainingArguments(
        output_dir=tempfile.mkdtemp(prefix="intent_"),
        per_device_train_batch_size=16,
        per_device_eval_batch_size=32,
        num_train_epochs=3,
        learning_rate=5e-3,
        eval_strategy="epoch",
        save_strategy="no",
        logging_steps=10,
        report_to="none",
        remove_unused_columns=False,
    )
    trainer = WeightedTrainer(
        model=BagOfEmbeddings(len(tok.vocab), 32, len(INTENTS)),
        args=args,
        train_dataset=train_ds,
        eval_dataset=eval_ds,
        data_collator=pad_collator,
        compute_metrics=compute_metrics,
        class_weights=weights.tolist(),
        label_prior=prior.tolist(),
    )
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
