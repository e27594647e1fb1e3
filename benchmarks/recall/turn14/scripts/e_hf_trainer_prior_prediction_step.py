"""Long-tailed news-topic classifier: train with plain CE, evaluate with
post-hoc logit adjustment (subtract tau * log prior), done in prediction_step
so that Trainer.evaluate/predict both report the adjusted numbers."""
import argparse
import random

import numpy as np
import torch
from torch.utils.data import Dataset
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import (
    DataCollatorWithPadding,
    DistilBertConfig,
    DistilBertForSequenceClassification,
    PreTrainedTokenizerFast,
    Trainer,
    TrainingArguments,
)

TOPICS = {
    0: "stocks market shares rally investors",
    1: "match goal league striker coach",
    2: "election vote senate campaign poll",
    3: "telescope planet orbit nasa galaxy",
    4: "vaccine trial dose patients clinic",
}
COUNTS = [400, 150, 60, 20, 8]


def synth(seed, scale=1.0):
    rnd = random.Random(seed)
    rows = []
    for label, n in enumerate(COUNTS):
        words = TOPICS[label].split()
        for _ in range(max(2, int(n * scale))):
            body = rnd.sample(words, 3) + [rnd.choice(TOPICS[rnd.randrange(5)].split()) for _ in range(3)]
            rnd.shuffle(body)
            rows.append((" ".join(body), label))
    rnd.shuffle(rows)
    return rows


class NewsSet(Dataset):
    def __init__(self, rows, tok):
        self.enc = tok([t for t, _ in rows], truncation=True, max_length=24)
        self.y = [y for _, y in rows]

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        d = {k: v[i] for k, v in self.enc.items()}
        d["labels"] = self.y[i]
        return d


class LogitAdjustedTrainer(Trainer):
    def __init__(self, *args, label_counts=None, tau=1.0, **kwargs):
        super().__init__(*args, **kwargs)
        self.label_counts = list(label_counts)
        self.tau = tau

    def prediction_step(self, model, inputs, prediction_loss_only, ignore_keys=None):
        inputs = self._prepare_inputs(inputs)
        labels = inputs.get("labels")
        with torch.no_grad():
            outputs = model(**inputs)
        loss = outputs.loss.detach() if outputs.loss is not None else None
        if prediction_loss_only:
            return loss, None, None
        counts = torch.tensor(self.label_counts, dtype=torch.float)  # expect: DEV006
        log_prior = torch.log(counts / counts.sum())
        logits = outputs.logits - self.tau * log_prior
        return loss, logits.detach(), labels


def balanced_accuracy(eval_pred):
    logits, labels = eval_pred
    preds = logits.argmax(-1)
    per_class = [(preds[labels == c] == c).mean() for c in np.unique(labels)]
    return {"acc": float((preds == labels).mean()), "balanced_acc": float(np.mean(per_class))}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tau", type=float, default=1.0)
    ap.add_argument("--epochs", type=float, default=2)
    ap.add_argument("--out", default="/tmp/e_logit_adjust")
    args = ap.parse_args()

    vocab = {"[PAD]": 0, "[UNK]": 1}
    for text in TOPICS.values():
        for w in text.split():
            vocab.setdefault(w, len(vocab))
    backend = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    backend.pre_tokenizer = pre_tokenizers.Whitespace()
    tok = PreTrainedTokenizerFast(tokenizer_object=backend, pad_token="[PAD]", unk_token="[UNK]")

    train_rows, test_rows = synth(0), synth(1, scale=0.0)
    config = DistilBertConfig(vocab_size=len(vocab), dim=64, hidden_dim=128, n_layers=2, n_heads=2,
                              max_position_embeddings=32, num_labels=len(TOPICS))
    model = DistilBertForSequenceClassification(config)

    trainer = LogitAdjustedTrainer(
        model=model,
        args=TrainingArguments(output_dir=args.out, num_train_epochs=args.epochs, learning_rate=1e-3,
                               per_device_train_batch_size=32, per_device_eval_batch_size=32,
                               save_strategy="no", report_to=[], logging_steps=20),
        train_dataset=NewsSet(train_rows, tok),
        eval_dataset=NewsSet(test_rows, tok),
        data_collator=DataCollatorWithPadding(tok),
        compute_metrics=balanced_accuracy,
        label_counts=COUNTS,
        tau=args.tau,
    )
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
