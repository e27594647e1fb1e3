"""Flask endpoint classifying radiology report snippets. The model and tokenizer are loaded
once at start-up; each request is tokenised, run on the GPU when there is one, and the
class probabilities are returned as JSON."""
import os

import torch
from flask import Flask, jsonify, request
from transformers import AutoModelForSequenceClassification, AutoTokenizer

MODEL_DIR = os.environ.get("MODEL_DIR", "distilbert-base-uncased")
LABELS = ["normal", "follow-up", "urgent"]

app = Flask(__name__)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
tokenizer = AutoTokenizer.from_pretrained(MODEL_DIR)
model = AutoModelForSequenceClassification.from_pretrained(MODEL_DIR, num_labels=len(LABELS))
model.to(device).eval()


@app.route("/health")
def health():
    return jsonify({"status": "ok", "device": str(device)})


@app.route("/predict", methods=["POST"])
def predict():
    payload = request.get_json(force=True)
    texts = payload["texts"] if isinstance(payload.get("texts"), list) else [payload["text"]]
    enc = tokenizer(texts, padding=True, truncation=True, max_length=256, return_tensors="pt")
    input_ids = enc["input_ids"]  # expect: DEV020
    enc = enc.to(device)
    with torch.inference_mode():
        logits = model(input_ids=input_ids, attention_mask=enc["attention_mask"]).logits
    probs = logits.softmax(dim=-1).numpy()  # expect: DEV011
    results = []
    for text, p in zip(texts, probs):
        results.append({
            "text": text[:80],
            "label": LABELS[int(p.argmax())],
            "scores": {name: round(float(s), 4) for name, s in zip(LABELS, p)},
        })
    return jsonify(results)


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=int(os.environ.get("PORT", 8000)))
