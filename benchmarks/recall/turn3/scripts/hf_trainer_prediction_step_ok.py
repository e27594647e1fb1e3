"""Token classification: prediction_step override that masks special tokens, every new tensor made on the logits' device."""
import torch
from transformers import AutoModelForTokenClassification, AutoTokenizer, Trainer, TrainingArguments


class MaskedPredictionTrainer(Trainer):
    def prediction_step(self, model, inputs, prediction_loss_only, ignore_keys=None):
        inputs = self._prepare_inputs(inputs)
        labels = inputs.get("labels")
        with torch.no_grad():
            outputs = model(**inputs)
        logits = outputs.logits
        ignore = torch.full(logits.shape[:2], -100, dtype=torch.long, device=logits.device)
        preds = torch.where(inputs["attention_mask"].bool(), logits.argmax(-1), ignore)
        loss = outputs.loss.detach() if outputs.loss is not None else None
        return loss, preds, labels


def compute_metrics(eval_pred):
    preds, labels = eval_pred
    keep = labels != -100
    return {"token_acc": float((preds[keep] == labels[keep]).mean())}


def main():
    from datasets import load_dataset
    tok = AutoTokenizer.from_pretrained("bert-base-cased")
    ds = load_dataset("conll2003", split="validation[:256]")

    def encode(batch):
        enc = tok(batch["tokens"], is_split_into_words=True, truncation=True, padding="max_length", max_length=48)
        enc["labels"] = [[tags[w] if w is not None else -100 for w in enc.word_ids(i)]
                         for i, tags in enumerate(batch["ner_tags"])]
        return enc

    ds = ds.map(encode, batched=True, remove_columns=ds.column_names)
    model = AutoModelForTokenClassification.from_pretrained("bert-base-cased", num_labels=9)
    trainer = MaskedPredictionTrainer(model=model, args=TrainingArguments("out/ner", report_to="none"),
                                      eval_dataset=ds, compute_metrics=compute_metrics)
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
