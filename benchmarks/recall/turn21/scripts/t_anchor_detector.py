"""Single-level anchor detector: anchors, a box coder, IoU matching and NMS.
Targets come as a list of dicts per image, like torchvision detection datasets."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def box_iou(a, b):
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    return inter / (area_a[:, None] + area_b[None, :] - inter)


def nms(boxes, scores, thr=0.5):
    order = scores.argsort(descending=True)
    keep = []
    while order.numel() > 0:
        i = order[0]
        keep.append(i)
        if order.numel() == 1:
            break
        ious = box_iou(boxes[i].unsqueeze(0), boxes[order[1:]])[0]
        order = order[1:][ious <= thr]
    return torch.stack(keep)


class AnchorGenerator(nn.Module):
    def __init__(self, sizes=(8.0, 16.0), stride=4):
        super().__init__()
        self.stride = stride
        base = [[-s / 2, -s / 2, s / 2, s / 2] for s in sizes]
        self.register_buffer("base_anchors", torch.tensor(base))

    def forward(self, feature):
        fh, fw = feature.shape[-2:]
        shifts_x = torch.arange(0, fw, dtype=torch.float32) * self.stride  # expect: DEV006
        shifts_y = torch.arange(0, fh, dtype=torch.float32, device=feature.device) * self.stride
        sy, sx = torch.meshgrid(shifts_y, shifts_x, indexing="ij")
        shifts = torch.stack([sx, sy, sx, sy], -1).reshape(-1, 1, 4)
        return (shifts + self.base_anchors.view(1, -1, 4)).reshape(-1, 4)


class BoxCoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = torch.tensor([10.0, 10.0, 5.0, 5.0])  # expect: DEV010

    def encode(self, gt, anchors):
        wa, ha = anchors[:, 2] - anchors[:, 0], anchors[:, 3] - anchors[:, 1]
        xa, ya = anchors[:, 0] + 0.5 * wa, anchors[:, 1] + 0.5 * ha
        wg, hg = gt[:, 2] - gt[:, 0], gt[:, 3] - gt[:, 1]
        xg, yg = gt[:, 0] + 0.5 * wg, gt[:, 1] + 0.5 * hg
        deltas = torch.stack([(xg - xa) / wa, (yg - ya) / ha, torch.log(wg / wa), torch.log(hg / ha)], 1)
        return deltas * self.weights.to(deltas.device)

    def forward(self, deltas, anchors):
        d = deltas / self.weights
        wa, ha = anchors[:, 2] - anchors[:, 0], anchors[:, 3] - anchors[:, 1]
        xa, ya = anchors[:, 0] + 0.5 * wa, anchors[:, 1] + 0.5 * ha
        x, y = xa + d[:, 0] * wa, ya + d[:, 1] * ha
        w, h = wa * torch.exp(d[:, 2]), ha * torch.exp(d[:, 3])
        return torch.stack([x - w / 2, y - h / 2, x + w / 2, y + h / 2], 1)


class TinyDetector(nn.Module):
    def __init__(self, n_anchors=2):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU())
        self.cls = nn.Conv2d(32, n_anchors, 1)
        self.reg = nn.Conv2d(32, n_anchors * 4, 1)
        self.anchors = AnchorGenerator()
        self.coder = BoxCoder()

    def forward(self, images):
        feat = self.backbone(images)
        B = feat.shape[0]
        logits = self.cls(feat).permute(0, 2, 3, 1).reshape(B, -1)
        deltas = self.reg(feat).permute(0, 2, 3, 1).reshape(B, -1, 4)
        return logits, deltas, self.anchors(feat)

    def loss(self, logits, deltas, anchors, targets):
        total = 0.0
        for b, tgt in enumerate(targets):
            iou = box_iou(anchors, tgt["boxes"])
            best, idx = iou.max(1)
            pos = best > 0.3
            total = total + F.binary_cross_entropy_with_logits(logits[b], pos.float())
            if pos.any():
                enc = self.coder.encode(tgt["boxes"][idx[pos]], anchors[pos])
                total = total + F.smooth_l1_loss(deltas[b][pos], enc)
        return total / len(targets)

    @torch.no_grad()
    def detect(self, images, score_thr=0.3):
        logits, deltas, anchors = self(images)
        dets = []
        for b in range(images.shape[0]):
            boxes = self.coder(deltas[b], anchors)
            scores = logits[b].sigmoid()
            m = scores > score_thr
            keep = nms(boxes[m], scores[m]) if m.any() else torch.zeros(0, dtype=torch.long, device=boxes.device)
            dets.append({"boxes": boxes[m][keep], "scores": scores[m][keep]})
        return dets


def synthetic_batch(n=4, size=32):
    images = torch.rand(n, 3, size, size)
    targets = []
    for _ in range(n):
        xy = torch.randint(0, size - 12, (2,)).float()
        targets.append({"boxes": torch.cat([xy, xy + 10]).unsqueeze(0), "labels": torch.ones(1, dtype=torch.long)})
    return images, targets


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = TinyDetector().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    for step in range(3):
        images, targets = synthetic_batch()
        images = images.to(device)
        targets = [{k: v.to(device) for k, v in t.items()} for t in targets]
        logits, deltas, anchors = model(images)
        loss = model.loss(logits, deltas, anchors, targets)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, round(loss.item(), 4))
    model.eval()
    images, _ = synthetic_batch(2)
    dets = model.detect(images.to(device), score_thr=0.0)
    results = [{k: v.numpy() for k, v in d.items()} for d in dets]  # expect: DEV011
    print([r["boxes"].shape for r in results])


if __name__ == "__main__":
    main()
