from typing import Dict, List


def to_records(ticket_ids: List[str], logits, labels: List[str]) -> List[Dict]:
    probs = logits.softmax(-1).numpy()  # expect: DEV011
    records = []
    for tid, row in zip(ticket_ids, probs):
        k = int(row.argmax())
        records.append({"ticket": tid, "label": labels[k], "confidence": round(float(row[k]), 4)})
    return records


def summarize(records: List[Dict]) -> Dict[str, int]:
    counts: Dict[str, int] = {}
    for r in records:
        counts[r["label"]] = counts.get(r["label"], 0) + 1
    return counts
