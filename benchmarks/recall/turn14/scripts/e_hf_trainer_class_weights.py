"""Intent classification with a class-weighted loss in a Trainer subclass.

The intents are very unbalanced (most utterances are "other"), so the loss is
weighted by inverse class frequency. Everything is built in memory: a word-level
tokenizer over the training utterances and a 2-layer BERT.
"""
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

INTENTS = ["other", "book_flight", "cancel", "refund"]
TEMPLATES = {
    "other": ["what is the weather like", "tell me a joke", "how are you today", "play some music"],
    "book_flight": ["book a flight to paris", "i need a ticket to rome"],
    "cancel": ["cancel my booking"],
    "refund": ["i want my money back"],
}
PRIORS = [0.82, 0.1, 0.05, 0.03]


def make_utterances(n, seed):
    rnd = random.Random(seed)
    rows = []
    for _ in range(n):
        label = rnd.choices(range(len(INTENTS)), weights=PRIORS)[0]
        text = rnd.choice(TEMPLATES[INTENTS[label]])
        rows.append((text, label))
    return rows


def build_tokenizer(texts):
    vocab = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3}
    for t in texts:
        for w in t.split():
            vocab.setdefault(w, len(vocab))
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    tok.normalizer = normalizers.Lowercase()
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]")


class IntentDataset(Dataset):
    def __init__(self, rows, tokenizer):
        self.enc = tokenizer([t for t, _ in rows], truncation=True, max_length=16)
        self.labels = [y for _, y in rows]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        item = {k: v[i] for k, v in self.enc.items()}
        item["labels"] = self.labels[i]
        return item


class WeightedLossTrainer(Trainer):
    def __init__(self, *args, class_weights=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.class_weights = class_weights

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        logits = outputs.logits
        loss_fct = nn.CrossEntropyLoss(weight=self.class_weights)  # expect: DEV012
        loss = loss_fct(logits.view(-1, self.model.config.num_labels), labels.view(-1))
        return (loss, outputs) if return_outputs else loss


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    preds = np.argmax(logits, axis=-1)
    recalls = [float((preds[labels == c] == c).mean()) if (labels == c).any() else 0.0
               for c in range(len(INTENTS))]
    return {"accuracy": float((preds == labels).mean()), "macro_recall": float(np.mean(recalls))}


def main():
    train_rows, eval_rows = make_utterances(600, 0), make_utterances(120, 1)
    tokenizer = build_tokenizer([t for t, _ in train_rows])

    counts = Counter(y for _, y in train_rows)
    total = sum(counts.values())
    class_weights = torch.tensor(
        [total / (len(INTENTS) * counts.get(c, 1)) for c in range(len(INTENTS))], dtype=torch.float
    )
    print("class weights:", [round(w, 2) for w in class_weights.tolist()])

    config = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=64, num_hidden_layers=2,
                        num_attention_heads=2, intermediate_size=128, max_position_embeddings=32,
                        num_labels=len(INTENTS))
    model = BertForSequenceClassification(config)

    args = TrainingArguments(
        output_dir="/tmp/e_intent_weighted",
        per_device_train_batch_size=32,
        per_device_eval_batch_size=64,
        num_train_epochs=2,
        learning_rate=5e-4,
        eval_strategy="epoch",
        logging_steps=10,
        save_strategy="no",
        report_to=[],
    )
    trainer = WeightedLossTrainer(
        model=model,
        args=args,
        train_dataset=IntentDataset(train_rows, tokenizer),
        eval_dataset=IntentDataset(eval_rows, tokenizer),
        data_collator=DataCollatorWithPadding(tokenizer),
        compute_metrics=compute_metrics,
        class_weights=class_weights,
    )
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
