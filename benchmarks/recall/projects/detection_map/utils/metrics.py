"""VOC-style mean average precision, in NumPy."""
import numpy as np


def box_iou(a, b):
    """IoU between every box of a (N, 4) and b (M, 4), xyxy."""
    lt = np.maximum(a[:, None, :2], b[None, :, :2])
    rb = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.clip(rb - lt, 0, None).prod(axis=2)
    area_a = np.clip(a[:, 2:] - a[:, :2], 0, None).prod(axis=1)
    area_b = np.clip(b[:, 2:] - b[:, :2], 0, None).prod(axis=1)
    return inter / (area_a[:, None] + area_b[None, :] - inter + 1e-9)


def average_precision(recall, precision):
    mrec = np.concatenate([[0.0], recall, [1.0]])
    mpre = np.concatenate([[0.0], precision, [0.0]])
    mpre = np.maximum.accumulate(mpre[::-1])[::-1]
    idx = np.where(mrec[1:] != mrec[:-1])[0]
    return float(np.sum((mrec[idx + 1] - mrec[idx]) * mpre[idx + 1]))


def mean_average_precision(outputs, targets, num_classes, iou_thresh=0.5):
    preds = [{k: v.numpy() for k, v in out.items()} for out in outputs]  # expect: DEV011
    gts = [{k: v.numpy() for k, v in t.items()} for t in targets]
    aps = []
    for c in range(1, num_classes + 1):
        scores, hits, n_gt = [], [], 0
        for p, gt in zip(preds, gts):
            gt_boxes = gt["boxes"][gt["labels"] == c]
            n_gt += len(gt_boxes)
            sel = p["labels"] == c
            boxes, conf = p["boxes"][sel], p["scores"][sel]
            order = np.argsort(-conf)
            used = np.zeros(len(gt_boxes), dtype=bool)
            ious = box_iou(boxes[order], gt_boxes) if len(gt_boxes) else None
            for rank, j in enumerate(order):
                scores.append(conf[j])
                best = int(ious[rank].argmax()) if ious is not None else -1
                hit = best >= 0 and ious[rank, best] >= iou_thresh and not used[best]
                if hit:
                    used[best] = True
                hits.append(hit)
        if n_gt == 0:
            continue
        order = np.argsort(-np.array(scores))
        tp = np.cumsum(np.array(hits, dtype=float)[order])
        recall = tp / n_gt
        precision = tp / np.arange(1, len(tp) + 1)
        aps.append(average_precision(recall, precision))
    return float(np.mean(aps)) if aps else 0.0
