"""Fine-tune a BERT-style model on Yelp reviews with class weights."""
from transformers import AutoModelForSequenceClassification, AutoTokenizer, DataCollatorWithPadding, TrainingArguments

from data import inverse_frequency_weights, load_reviews
from metrics import compute_metrics
from trainer import WeightedTrainer

MODEL = "bert-base-cased"


def main():
    tokenizer = AutoTokenizer.from_pretrained(MODEL)
    ds = load_reviews(tokenizer)
    weights = inverse_frequency_weights(ds["train"]["labels"], num_classes=5)
    model = AutoModelForSequenceClassification.from_pretrained(MODEL, num_labels=5)
    args = TrainingArguments("out/yelp", per_device_train_batch_size=32, num_train_epochs=2, eval_strategy="epoch",
                             save_strategy="epoch", load_best_model_at_end=True, report_to="none")
    trainer = WeightedTrainer(model=model, args=args, train_dataset=ds["train"], eval_dataset=ds["test"],
                              data_collator=DataCollatorWithPadding(tokenizer), compute_metrics=compute_metrics,
                              class_weights=weights)
    trainer.train()
    trainer.save_model("out/yelp/best")


if __name__ == "__main__":
    main()
