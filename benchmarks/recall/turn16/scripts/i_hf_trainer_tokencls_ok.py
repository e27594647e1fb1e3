"""Token classification (toy NER) with a Trainer subclass: class-weighted
token loss, a custom padding collator, and a prediction_step that scales the logits by a
calibration temperature.
"""
import random
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import Dataset
from transformers import Trainer, TrainingArguments

TAGS = ["O", "B-PER", "B-LOC"]
PEOPLE = ["alice", "bob", "carol", "dave"]
PLACES = ["paris", "tokyo", "lima", "oslo"]
FILLER = ["met", "in", "visited", "yesterday", "with", "and", "the", "city"]


def make_sentence(rnd):
    words, tags = [], []
    for _ in range(rnd.randint(4, 9)):
        r = rnd.random()
        if r < 0.15:
            words.append(rnd.choice(PEOPLE)); tags.append(1)
        elif r < 0.25:
            words.append(rnd.choice(PLACES)); tags.append(2)
        else:
            words.append(rnd.choice(FILLER)); tags.append(0)
    return words, tags


class ToyNER(Dataset):
    def __init__(self, n, vocab, seed):
        rnd = random.Random(seed)
        self.rows = []
        for _ in range(n):
            words, tags = make_sentence(rnd)
            self.rows.append({"input_ids": [vocab[w] for w in words], "labels": tags})

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return self.rows[i]


class PadCollator:
    def __init__(self, pad_id=0, label_pad=-100):
        self.pad_id, self.label_pad = pad_id, label_pad

    def __call__(self, features):
        L = max(len(f["input_ids"]) for f in features)
        ids = torch.full((len(features), L), self.pad_id, dtype=torch.long)
        labels = torch.full((len(features), L), self.label_pad, dtype=torch.long)
        for i, f in enumerate(features):
            n = len(f["input_ids"])
            ids[i, :n] = torch.tensor(f["input_ids"])
            labels[i, :n] = torch.tensor(f["labels"])
        return {"input_ids": ids, "attention_mask": (ids != self.pad_id).long(), "labels": labels}


class BiLSTMTagger(nn.Module):
    def __init__(self, vocab_size, num_tags, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.lstm = nn.LSTM(dim, dim, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * dim, num_tags)

    def forward(self, input_ids, attention_mask=None):
        h, _ = self.lstm(self.emb(input_ids))
        return {"logits": self.out(h)}


class WeightedTokenTrainer(Trainer):
    def __init__(self, *args, tag_weights=None, temperature=1.0, **kwargs):
        super().__init__(*args, **kwargs)
        self.tag_weights = torch.tensor(tag_weights, dtype=torch.float32)
        self.temperature = temperature

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        logits = outputs["logits"]
        loss = F.cross_entropy(
            logits.reshape(-1, logits.size(-1)),
            labels.reshape(-1),
            weight=self.tag_weights.to(logits.device),
            ignore_index=-100,
        )
        return (loss, outputs) if return_outputs else loss

    def prediction_step(self, model, inputs, prediction_loss_only, ignore_keys=None):
        inputs = self._prepare_inputs(inputs)
        labels = inputs["labels"]
        with torch.no_grad():
            loss, outputs = self.compute_loss(model, dict(inputs), return_outputs=True)
        if prediction_loss_only:
            return loss.detach(), None, None
        return loss.detach(), outputs["logits"] / self.temperature, labels


def compute_metrics(eval_pred):
    preds = eval_pred.predictions.argmax(-1)
    labels = eval_pred.label_ids
    keep = labels != -100
    entity = keep & (labels > 0)
    return {
        "token_acc": float((preds[keep] == labels[keep]).mean()),
        "entity_recall": float((preds[entity] == labels[entity]).mean()) if entity.any() else 0.0,
    }


def main():
    words = ["[PAD]"] + PEOPLE + PLACES + FILLER
    vocab = {w: i for i, w in enumerate(words)}
    train_ds, eval_ds = ToyNER(300, vocab, 0), ToyNER(60, vocab, 1)
    counts = np.bincount([t for r in train_ds.rows for t in r["labels"]], minlength=len(TAGS))
    tag_weights = (counts.sum() / (len(TAGS) * np.maximum(counts, 1))).tolist()

    args = TrainingArguments(
        output_dir=tempfile.mkdtemp(prefix="toyner_"),
        per_device_train_batch_size=16,
        per_device_eval_batch_size=32,
        num_train_epochs=4,
        learning_rate=1e-2,
        eval_strategy="epoch",
        save_strategy="no",
        report_to="none",
        remove_unused_columns=False,
    )
    trainer = WeightedTokenTrainer(
        model=BiLSTMTagger(len(vocab), len(TAGS)),
        args=args,
        train_dataset=train_ds,
        eval_dataset=eval_ds,
        data_collator=PadCollator(),
        compute_metrics=compute_metrics,
        tag_weights=tag_weights,
        temperature=1.5,
    )
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
