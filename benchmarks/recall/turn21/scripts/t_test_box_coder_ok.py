"""pytest tests for a detection box coder; the CUDA comparison is skipped without a GPU."""
import pytest
import torch


def encode(gt, anchors, weights=(10.0, 10.0, 5.0, 5.0)):
    wx, wy, ww, wh = weights
    wa, ha = anchors[:, 2] - anchors[:, 0], anchors[:, 3] - anchors[:, 1]
    xa, ya = anchors[:, 0] + 0.5 * wa, anchors[:, 1] + 0.5 * ha
    wg, hg = gt[:, 2] - gt[:, 0], gt[:, 3] - gt[:, 1]
    xg, yg = gt[:, 0] + 0.5 * wg, gt[:, 1] + 0.5 * hg
    return torch.stack([wx * (xg - xa) / wa, wy * (yg - ya) / ha, ww * torch.log(wg / wa), wh * torch.log(hg / ha)], 1)


def decode(deltas, anchors, weights=(10.0, 10.0, 5.0, 5.0), clip=4.135):
    wx, wy, ww, wh = weights
    wa, ha = anchors[:, 2] - anchors[:, 0], anchors[:, 3] - anchors[:, 1]
    xa, ya = anchors[:, 0] + 0.5 * wa, anchors[:, 1] + 0.5 * ha
    dx, dy = deltas[:, 0] / wx, deltas[:, 1] / wy
    dw, dh = (deltas[:, 2] / ww).clamp(max=clip), (deltas[:, 3] / wh).clamp(max=clip)
    x, y, w, h = xa + dx * wa, ya + dy * ha, wa * torch.exp(dw), ha * torch.exp(dh)
    return torch.stack([x - w / 2, y - h / 2, x + w / 2, y + h / 2], 1)


def random_boxes(n, device="cpu"):
    xy = torch.rand(n, 2, device=device) * 50
    wh = torch.rand(n, 2, device=device) * 20 + 1
    return torch.cat([xy, xy + wh], 1)


def test_round_trip_cpu():
    anchors, gt = random_boxes(16), random_boxes(16)
    torch.testing.assert_close(decode(encode(gt, anchors), anchors), gt, rtol=1e-4, atol=1e-4)


def test_decode_clips_huge_scales():
    anchors = random_boxes(4)
    deltas = torch.tensor([[0.0, 0.0, 1e3, 1e3]]).repeat(4, 1)
    boxes = decode(deltas, anchors)
    assert torch.isfinite(boxes).all()


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
@pytest.mark.parametrize("n", [1, 7, 64])
def test_round_trip_cuda_matches_cpu(n):
    anchors, gt = random_boxes(n), random_boxes(n)
    cpu = decode(encode(gt, anchors), anchors)
    gpu = decode(encode(gt.cuda(), anchors.cuda()), anchors.cuda())
    torch.testing.assert_close(gpu.cpu(), cpu, rtol=1e-4, atol=1e-4)
