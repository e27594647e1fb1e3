"""A single-scale, one-box-per-cell detector (YOLO-v1 flavour)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def cxcywh_to_xyxy(b):
    cx, cy, w, h = b.unbind(-1)
    return torch.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], dim=-1)


class TinyDetector(nn.Module):
    def __init__(self, num_classes, image_size=32, grid=4, score_thresh=0.05):
        super().__init__()
        self.num_classes, self.image_size, self.grid = num_classes, image_size, grid
        self.score_thresh = score_thresh
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(),
            nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU(),
            nn.Conv2d(32, 64, 3, 2, 1), nn.ReLU())
        self.cls_head = nn.Conv2d(64, num_classes + 1, 1)  # class 0 is background
        self.box_head = nn.Conv2d(64, 4, 1)

    def forward(self, images, targets=None):
        feats = self.backbone(images)
        cls_logits = self.cls_head(feats).flatten(2).transpose(1, 2)
        box_pred = self.box_head(feats).flatten(2).transpose(1, 2).sigmoid()
        if self.training:
            return self.compute_loss(cls_logits, box_pred, targets)
        return self.postprocess(cls_logits, box_pred, images.shape[-2:])

    def compute_loss(self, cls_logits, box_pred, targets):
        g = self.grid
        loss_cls, loss_box = 0.0, 0.0
        for i, t in enumerate(targets):
            boxes = t["boxes"] / self.image_size
            cx = (boxes[:, 0] + boxes[:, 2]) / 2
            cy = (boxes[:, 1] + boxes[:, 3]) / 2
            cell = (cy * g).long().clamp(max=g - 1) * g + (cx * g).long().clamp(max=g - 1)
            cls_target = torch.zeros(g * g, dtype=torch.long, device=t["labels"].device)
            cls_target[cell] = t["labels"]
            loss_cls = loss_cls + F.cross_entropy(cls_logits[i], cls_target)
            loss_box = loss_box + F.l1_loss(cxcywh_to_xyxy(box_pred[i, cell]), boxes)
        n = len(targets)
        return {"loss_cls": loss_cls / n, "loss_box": loss_box / n}

    @torch.no_grad()
    def postprocess(self, cls_logits, box_pred, image_shape):
        h, w = image_shape
        scale = torch.tensor([w, h, w, h], dtype=torch.float32)  # expect: DEV006
        scores, labels = cls_logits.softmax(-1)[..., 1:].max(-1)
        boxes = cxcywh_to_xyxy(box_pred) * scale
        results = []
        for b in range(cls_logits.shape[0]):
            keep = scores[b] > self.score_thresh
            results.append({"boxes": boxes[b][keep], "scores": scores[b][keep],
                            "labels": labels[b][keep] + 1})
        return results
