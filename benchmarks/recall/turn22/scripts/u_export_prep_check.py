"""Prepare a multi-head classifier for deployment: bake the input normalisation into
the module, check that batched and single-image outputs agree, then hand the module
to the ONNX exporter (skipped when the `onnx` package is missing).
"""
import os
import tempfile

import torch
import torch.nn as nn


class Backbone(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, width, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, stride=2, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.out_dim = width

    def forward(self, x):
        return self.features(x)


class DeployWrapper(nn.Module):
    """uint8-range image in, one probability vector per task out."""

    def __init__(self, backbone, task_sizes):
        super().__init__()
        self.backbone = backbone
        self.heads = [nn.Linear(backbone.out_dim, n) for n in task_sizes]  # expect: DEV009
        self.pixel_mean = torch.tensor([123.7, 116.3, 103.5]).view(1, 3, 1, 1)  # expect: DEV010
        self.pixel_std = 58.0

    def forward(self, img):
        x = (img - self.pixel_mean) / self.pixel_std
        feats = self.backbone(x)
        return tuple(h(feats).softmax(-1) for h in self.heads)


def export_onnx(module, example, path):
    try:
        import onnx  # noqa: F401
    except ImportError:
        print("onnx not installed, skipping export")
        return None
    torch.onnx.export(module, (example,), path, input_names=["image"],
                      output_names=["task_a", "task_b"], dynamic_axes={"image": {0: "batch"}})
    return path


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    backbone = Backbone()
    # weights of the trained backbone would be loaded here
    wrapper = DeployWrapper(backbone, task_sizes=[3, 7]).to(device).eval()

    example = torch.randint(0, 256, (4, 3, 32, 32), device=device).float()
    with torch.no_grad():
        batched = wrapper(example)
        singles = [wrapper(example[i:i + 1]) for i in range(example.shape[0])]

    for k, out in enumerate(batched):
        # the packaging tool wants float32 reference outputs
        ref = out.type(torch.FloatTensor)  # expect: DEV021
        single = torch.cat([s[k] for s in singles])
        torch.testing.assert_close(single, ref, rtol=1e-4, atol=1e-5)
        print(f"head {k}: batched and single-image outputs agree, shape {tuple(ref.shape)}")

    path = os.path.join(tempfile.mkdtemp(), "classifier.onnx")
    print("exported:", export_onnx(wrapper, example, path))


if __name__ == "__main__":
    main()
