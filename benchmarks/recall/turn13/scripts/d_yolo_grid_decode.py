"""YOLO-style single-scale detector: objectness training, grid decoding and batched NMS, then NumPy export.

Correct look-alike written from the anchor/grid threads (torchvision "Fix for AnchorGenerator when
device switch happen", mmdetection "Pass device to grid_anchors", d2l "change device of the
tensor: anchors to gpu") and from "can't convert cuda:0 device type tensor to numpy": anchors are a
registered buffer, the grid is built on the feature map's device, the targets move with the
images, `.type(torch.float32)` keeps the device, and detections leave through `.cpu()`.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class YoloHead(nn.Module):
    def __init__(self, anchors=((8, 8), (16, 12)), stride=8):
        super().__init__()
        self.stride = stride
        self.register_buffer("anchors", torch.tensor(anchors, dtype=torch.float32))
        na = len(anchors)
        self.body = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.SiLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.SiLU(),
            nn.Conv2d(32, 32, 3, stride=2, padding=1), nn.SiLU(),
        )
        self.pred = nn.Conv2d(32, na * 5, 1)

    def forward(self, x):
        p = self.pred(self.body(x))
        b, _, h, w = p.shape
        return p.view(b, self.anchors.size(0), 5, h, w).permute(0, 1, 3, 4, 2)

    def decode(self, p):
        _, na, h, w, _ = p.shape
        gy, gx = torch.meshgrid(torch.arange(h, device=p.device), torch.arange(w, device=p.device),
                                indexing="ij")
        grid = torch.stack([gx, gy], -1).to(p.dtype)
        xy = (p[..., :2].sigmoid() + grid) * self.stride
        wh = p[..., 2:4].exp().clamp(max=8) * self.anchors.view(1, na, 1, 1, 2)
        boxes = torch.cat([xy - wh / 2, xy + wh / 2], -1).flatten(1, 3)
        return boxes, p[..., 4].sigmoid().flatten(1)


def nms(boxes, scores, thr=0.45):
    keep, order = [], scores.argsort(descending=True)
    while order.numel():
        i, order = order[0], order[1:]
        keep.append(i)
        lt = torch.max(boxes[i, :2], boxes[order, :2])
        rb = torch.min(boxes[i, 2:], boxes[order, 2:])
        inter = (rb - lt).clamp(min=0).prod(-1)
        union = (boxes[i, 2:] - boxes[i, :2]).prod() + (boxes[order, 2:] - boxes[order, :2]).prod(-1)
        order = order[inter / (union - inter) < thr]
    return torch.stack(keep) if keep else boxes.new_zeros(0, dtype=torch.long)


def make_batch(bs, g):
    imgs = torch.rand(bs, 3, 64, 64, generator=g) * 0.2
    obj = torch.zeros(bs, 2, 8, 8, dtype=torch.bool)
    for i in range(bs):
        cy, cx = (int(v) for v in torch.randint(1, 7, (2,), generator=g))
        imgs[i, :, cy * 8 - 4:cy * 8 + 4, cx * 8 - 4:cx * 8 + 4] = 1.0
        obj[i, 0, cy, cx] = True
    return imgs, obj


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = YoloHead().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    for step in range(60):
        imgs, obj = make_batch(16, g)
        imgs, obj = imgs.to(device), obj.to(device)
        p = model(imgs)
        loss = F.binary_cross_entropy_with_logits(p[..., 4], obj.type(torch.float32))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"objectness loss {loss.item():.4f}")

    model.eval()
    imgs, _ = make_batch(2, g)
    with torch.no_grad():
        boxes, scores = model.decode(model(imgs.to(device)))
    for b in range(boxes.size(0)):
        cand = scores[b] > 0.3
        kept = nms(boxes[b][cand], scores[b][cand])
        dets = torch.cat([boxes[b][cand][kept], scores[b][cand][kept, None]], 1).cpu().numpy()
        print(f"image {b}: {len(dets)} detections", np.round(dets[:2], 1).tolist())


if __name__ == "__main__":
    main()
