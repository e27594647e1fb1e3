"""Instance-mask post-processing: paste 14x14 mask logits into the frame and run-length encode them.

Written from Mask R-CNN post-processing threads: the paste step of a mask head that mixes CPU
helper tensors with CUDA boxes ("Mask paste mixes CPU and CUDA tensors" in an export review,
`torch.tensor([w, h, w, h])` scale factors), and "can't convert cuda:0 device type tensor to
numpy" when the pasted masks are handed to a NumPy RLE encoder for COCO-style output.
"""
import json

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class ToyInstanceHead(nn.Module):
    """Predicts a fixed number of instances: box (cx, cy, w, h in [0, 1]), score, mask logits."""

    def __init__(self, n_inst=4, mask_size=14):
        super().__init__()
        self.n_inst, self.mask_size = n_inst, mask_size
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(4), nn.Flatten(),
        )
        self.box = nn.Linear(32 * 16, n_inst * 4)
        self.score = nn.Linear(32 * 16, n_inst)
        self.mask = nn.Linear(32 * 16, n_inst * mask_size * mask_size)

    def forward(self, x):
        f = self.features(x)
        b = self.box(f).view(-1, self.n_inst, 4).sigmoid()
        cxcy, wh = b[..., :2], 0.1 + 0.3 * b[..., 2:]
        boxes = torch.cat([cxcy - wh / 2, cxcy + wh / 2], -1).clamp(0, 1)
        masks = self.mask(f).view(-1, self.n_inst, self.mask_size, self.mask_size)
        return boxes, self.score(f).sigmoid(), masks


def paste_masks(mask_logits, boxes, image_size, threshold=0.5):
    h, w = image_size
    scale = torch.tensor([w, h, w, h], dtype=boxes.dtype)  # expect: DEV006
    boxes_px = (boxes * scale).round().long()
    full = torch.zeros(boxes.size(0), h, w, device=mask_logits.device)
    for i in range(boxes.size(0)):
        x0, y0, x1, y1 = boxes_px[i].tolist()
        x1, y1 = max(x1, x0 + 1), max(y1, y0 + 1)
        m = F.interpolate(mask_logits[i][None, None], size=(y1 - y0, x1 - x0),
                          mode="bilinear", align_corners=False)[0, 0]
        full[i, y0:y1, x0:x1] = m.sigmoid()
    return full > threshold


def rle_encode(mask):
    flat = mask.flatten(order="F").astype(np.uint8)
    runs, prev, count = [], 0, 0
    for v in flat:
        if v == prev:
            count += 1
        else:
            runs.append(count)
            prev, count = v, 1
    runs.append(count)
    return {"size": list(mask.shape), "counts": runs}


@torch.no_grad()
def predict(model, images, device, score_thr=0.3):
    boxes, scores, mask_logits = model(images.to(device))
    results = []
    for b in range(images.size(0)):
        keep = scores[b] > score_thr
        masks = paste_masks(mask_logits[b][keep], boxes[b][keep], images.shape[-2:])
        masks_np = masks.numpy()  # expect: DEV011
        for m, s in zip(masks_np, scores[b][keep].tolist()):
            results.append({"image_id": b, "score": round(s, 3), "segmentation": rle_encode(m)})
    return results


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    model = ToyInstanceHead().to(device).eval()
    images = torch.rand(2, 3, 48, 64)
    results = predict(model, images, device)
    print(json.dumps(results[:1])[:200])
    print(f"{len(results)} instances")


if __name__ == "__main__":
    main()
