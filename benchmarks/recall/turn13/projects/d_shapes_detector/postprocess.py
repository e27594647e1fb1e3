"""Turn raw detector outputs into JSON-ready records (one best cell per image)."""
import numpy as np
import torch

from config import SCORE_THRESHOLD


def to_records(boxes, probs, image_ids):
    arr = torch.cat([boxes, probs], dim=-1).numpy()  # expect: DEV011
    records = []
    for img_id, rows in zip(image_ids, arr):
        fg = rows[:, 5:]
        cell = int(np.argmax(fg.max(axis=1)))
        score, label = float(fg[cell].max()), int(fg[cell].argmax())
        if score >= SCORE_THRESHOLD:
            records.append({"image_id": int(img_id), "label": label, "score": round(score, 3),
                            "box": [round(float(v), 1) for v in rows[cell, :4]]})
    return records


def box_iou_np(a, b):
    lt = np.maximum(a[:2], b[:2])
    rb = np.minimum(a[2:], b[2:])
    inter = np.clip(rb - lt, 0, None).prod()
    area = lambda x: (x[2] - x[0]) * (x[3] - x[1])  # noqa: E731
    return inter / (area(a) + area(b) - inter + 1e-9)


def hit_rate(records, gt_boxes, gt_labels, iou_thr=0.5):
    """Fraction of images whose best record matches the ground-truth square (NumPy inputs)."""
    hits = 0
    for rec in records:
        i = rec["image_id"]
        same_class = rec["label"] == int(gt_labels[i])
        if same_class and box_iou_np(np.array(rec["box"]), gt_boxes[i]) >= iou_thr:
            hits += 1
    return hits / max(len(gt_labels), 1)
