"""Zero-shot NLI classification: tokenizer outputs moved with .to(device), fields read after the move,
strings kept in Python lists alongside."""
import torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer


def classify(texts, labels, model_name="facebook/bart-large-mnli"):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    tok = AutoTokenizer.from_pretrained(model_name)
    model = AutoModelForSequenceClassification.from_pretrained(model_name).to(device).eval()
    entail = model.config.label2id.get("entailment", 2)
    results = []
    for text in texts:
        hypotheses = [f"This example is {label}." for label in labels]
        enc = tok([text] * len(labels), hypotheses, return_tensors="pt", padding=True, truncation=True).to(device)
        input_ids = enc["input_ids"]
        with torch.no_grad():
            logits = model(input_ids=input_ids, attention_mask=enc.attention_mask).logits
        scores = logits[:, entail].softmax(0)
        best = int(scores.argmax())
        results.append({"text": text, "label": labels[best], "score": scores[best].item(),
                        "n_tokens": int(enc["attention_mask"].sum())})
    return results


if __name__ == "__main__":
    print(classify(["The match ended 2-1 after extra time."], ["sports", "politics", "cooking"]))
