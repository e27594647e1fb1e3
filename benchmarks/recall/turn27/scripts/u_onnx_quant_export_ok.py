"""Export a trained crop-type classifier: TorchScript trace (and ONNX when requested) of the
float model on the serving device, plus a dynamically quantised CPU copy for edge boxes."""
import argparse
import copy
import os
import tempfile

import torch
import torch.nn as nn


class CropNet(nn.Module):
    def __init__(self, bands=6, n_classes=5):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(bands, 16, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Sequential(nn.Flatten(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, n_classes))

    def forward(self, x):
        return self.fc(self.conv(x))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--checkpoint", default=None)
    ap.add_argument("--out-dir", default=tempfile.mkdtemp())
    ap.add_argument("--onnx", action="store_true")
    ap.add_argument("--cpu", action="store_true")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and not args.cpu else "cpu")

    if args.checkpoint is None:
        args.checkpoint = os.path.join(args.out_dir, "cropnet.pt")
        torch.save({"model": CropNet().state_dict(), "epoch": 30}, args.checkpoint)

    ckpt = torch.load(args.checkpoint, map_location=device)
    model = CropNet()
    model.load_state_dict(ckpt["model"])
    model.to(device).eval()

    dummy = torch.randn(1, 6, 64, 64, device=device)
    traced = torch.jit.trace(model, dummy)
    traced.save(os.path.join(args.out_dir, "cropnet_ts.pt"))
    if args.onnx:
        torch.onnx.export(model, (dummy,), os.path.join(args.out_dir, "cropnet.onnx"),
                          input_names=["bands"], output_names=["logits"],
                          dynamic_axes={"bands": {0: "batch"}}, opset_version=17)

    cpu_model = copy.deepcopy(model).to("cpu")
    qmodel = torch.ao.quantization.quantize_dynamic(cpu_model, {nn.Linear}, dtype=torch.qint8)
    x = torch.randn(4, 6, 64, 64)
    with torch.no_grad():
        diff = (qmodel(x) - cpu_model(x)).abs().max().item()
    print(f"exported to {args.out_dir}; max |int8 - fp32| = {diff:.4f}")


if __name__ == "__main__":
    main()
