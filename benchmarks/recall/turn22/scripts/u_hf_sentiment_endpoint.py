"""Sentiment endpoint around a Hugging Face sequence classifier.

`handle(request)` is what the serving framework calls; texts are scored in
micro-batches and long inputs are truncated to the model's max length.
"""
import argparse

import torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer

MODEL_NAME = "distilbert-base-uncased-finetuned-sst-2-english"


class SentimentService:
    def __init__(self, model_name=MODEL_NAME, max_length=256, batch_size=16):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.tokenizer = AutoTokenizer.from_pretrained(model_name)
        self.model = AutoModelForSequenceClassification.from_pretrained(model_name)
        self.model.to(self.device).eval()
        self.labels = [self.model.config.id2label[i] for i in range(self.model.config.num_labels)]
        self.max_length = max_length
        self.batch_size = batch_size

    def _encode(self, texts):
        enc = self.tokenizer(texts, padding=True, truncation=True,
                             max_length=self.max_length, return_tensors="pt")
        n_tokens = enc["attention_mask"].sum(1).tolist()
        input_ids = enc["input_ids"]  # expect: DEV020
        enc = enc.to(self.device)
        return input_ids, enc["attention_mask"], n_tokens

    @torch.inference_mode()
    def handle(self, request):
        texts = request["inputs"]
        results = []
        for i in range(0, len(texts), self.batch_size):
            input_ids, attention_mask, n_tokens = self._encode(texts[i:i + self.batch_size])
            logits = self.model(input_ids=input_ids, attention_mask=attention_mask).logits
            probs = logits.softmax(-1).cpu()
            for p, n in zip(probs, n_tokens):
                k = int(p.argmax())
                results.append({"label": self.labels[k], "score": float(p[k]), "tokens": n})
        return {"outputs": results}


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("texts", nargs="*", default=["great service, will come back", "never again"])
    args = ap.parse_args()
    print(SentimentService().handle({"inputs": args.texts}))
