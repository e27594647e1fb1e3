"""Prediction handler for a small text-intent classifier behind an HTTP endpoint.

The web framework calls `predict(payload)` with the decoded JSON body; here we just
call it directly. The model is wrapped with a temperature fitted on the dev set so
the scores it returns are calibrated.
"""
import json

import torch
import torch.nn as nn

LABELS = ["billing", "cancel", "greeting", "other", "shipping"]
VOCAB = {w: i + 1 for i, w in enumerate(
    "hi hello where is my order cancel refund invoice charge package late thanks".split())}
DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class BagOfWords(nn.Module):
    def __init__(self, vocab_size=32, dim=24, n_classes=len(LABELS)):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab_size, dim, mode="mean")
        self.out = nn.Linear(dim, n_classes)

    def forward(self, ids, offsets):
        return self.out(self.emb(ids, offsets))


class TemperatureScaled(nn.Module):
    """Divides the logits by a temperature fitted after training."""

    def __init__(self, model, temperature=1.5):
        super().__init__()
        self.model = model
        self.temperature = torch.ones(1) * temperature  # expect: DEV010

    def forward(self, ids, offsets):
        return self.model(ids, offsets) / self.temperature


def tokenize(texts):
    ids, offsets = [], []
    for t in texts:
        offsets.append(len(ids))
        toks = [VOCAB.get(w, 0) for w in t.lower().split()] or [0]
        ids.extend(toks)
    return torch.tensor(ids, dtype=torch.long), torch.tensor(offsets, dtype=torch.long)


def build_model():
    base = BagOfWords()
    model = TemperatureScaled(base, temperature=1.7)
    model.to(DEVICE)
    model.eval()
    return model


MODEL = build_model()


@torch.inference_mode()
def predict(payload):
    texts = payload["texts"]
    ids, offsets = tokenize(texts)
    logits = MODEL(ids.to(DEVICE), offsets.to(DEVICE))
    probs = logits.softmax(dim=-1)
    top = probs.argmax(dim=-1).tolist()
    scores = probs.numpy()  # expect: DEV011
    return {
        "predictions": [
            {"label": LABELS[k], "scores": dict(zip(LABELS, map(float, row)))}
            for k, row in zip(top, scores)
        ]
    }


if __name__ == "__main__":
    body = json.loads('{"texts": ["where is my order", "cancel it", "hi thanks"]}')
    resp = predict(body)
    print(json.dumps(resp, indent=1)[:300])
