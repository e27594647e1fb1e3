"""Toxicity classifier: weighted CE in compute_loss, prior correction in
prediction_step, and a small predict() helper for the demo at the end."""
import random
from collections import Counter

import numpy as np
import torch
from torch import nn
from torch.utils.data import Dataset
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers
from transformers import (
    BertConfig,
    BertForSequenceClassification,
    DataCollatorWithPadding,
    PreTrainedTokenizerFast,
    Trainer,
    TrainingArguments,
)

LABELS = ["ok", "toxic"]
OK = ["thanks for the help", "see you tomorrow", "great game last night", "nice photo"]
TOXIC = ["you are an idiot", "shut up loser"]


def rows(n, seed, toxic_rate=0.1):
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        y = int(rnd.random() < toxic_rate)
        out.append((rnd.choice(TOXIC if y else OK), y))
    return out


def tokenizer_for(texts):
    vocab = {"[PAD]": 0, "[UNK]": 1}
    for t in texts:
        for w in t.split():
            vocab.setdefault(w, len(vocab))
    backend = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    backend.normalizer = normalizers.Lowercase()
    backend.pre_tokenizer = pre_tokenizers.Whitespace()
    return PreTrainedTokenizerFast(tokenizer_object=backend, pad_token="[PAD]", unk_token="[UNK]")


class TextSet(Dataset):
    def __init__(self, data, tok):
        self.enc = tok([t for t, _ in data], truncation=True, max_length=16)
        self.labels = [y for _, y in data]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        item = {k: v[i] for k, v in self.enc.items()}
        item["labels"] = self.labels[i]
        return item


class WeightedTrainer(Trainer):
    def __init__(self, *args, class_weights=None, label_prior=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.class_weights = class_weights
        self.label_prior = label_prior

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        logits = outputs.logits
        loss_fct = nn.CrossEntropyLoss(weight=self.class_weights.to(logits.device))
        loss = loss_fct(logits.view(-1, logits.size(-1)), labels.view(-1))
        return (loss, outputs) if return_outputs else loss

    def prediction_step(self, model, inputs, prediction_loss_only, ignore_keys=None):
        inputs = self._prepare_inputs(inputs)
        labels = inputs.get("labels")
        with torch.no_grad():
            outputs = model(**inputs)
        loss = outputs.loss.detach() if outputs.loss is not None else None
        if prediction_loss_only:
            return loss, None, None
        prior = torch.tensor(self.label_prior, dtype=outputs.logits.dtype, device=outputs.logits.device)
        logits = outputs.logits - torch.log(prior)
        return loss, logits.detach(), labels


def metrics(p):
    logits, labels = p
    preds = logits.argmax(-1)
    tp = int(((preds == 1) & (labels == 1)).sum())
    recall = tp / max(int((labels == 1).sum()), 1)
    return {"acc": float((preds == labels).mean()), "toxic_recall": recall}


@torch.no_grad()
def predict(texts, tokenizer, model):
    model.eval()
    enc = tokenizer(texts, padding=True, return_tensors="pt").to(model.device)
    mask = enc["attention_mask"]
    probs = model(**enc).logits.softmax(-1)
    lengths = mask.sum(-1)
    return [(t, LABELS[int(p.argmax())], round(float(p.max()), 3), int(n))
            for t, p, n in zip(texts, probs.cpu(), lengths.cpu())]


def main():
    train, test = rows(500, 0), rows(100, 1)
    tok = tokenizer_for(OK + TOXIC)
    counts = Counter(y for _, y in train)
    weights = torch.tensor([len(train) / (2 * counts[c]) for c in range(2)], dtype=torch.float)
    prior = [counts[c] / len(train) for c in range(2)]

    cfg = BertConfig(vocab_size=len(tok), hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                     intermediate_size=64, max_position_embeddings=32, num_labels=2)
    model = BertForSequenceClassification(cfg)
    trainer = WeightedTrainer(
        model=model,
        args=TrainingArguments(output_dir="/tmp/e_toxic_ok", num_train_epochs=2, learning_rate=1e-3,
                               per_device_train_batch_size=32, save_strategy="no", report_to=[],
                               eval_strategy="epoch", logging_steps=10),
        train_dataset=TextSet(train, tok),
        eval_dataset=TextSet(test, tok),
        data_collator=DataCollatorWithPadding(tok),
        compute_metrics=metrics,
        class_weights=weights,
        label_prior=prior,
    )
    trainer.train()
    for row in predict(["shut up", "thanks for the photo"], tok, trainer.model):
        print(row)


if __name__ == "__main__":
    main()
