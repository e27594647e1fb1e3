"""Export the diffusion denoiser (x_t, t) -> eps to TorchScript and ONNX.

    python g_export_denoiser_onnx.py --ckpt ema.pt --onnx denoiser.onnx --ts denoiser.ts
"""
import argparse
import math
import os

import numpy as np
import torch
import torch.nn as nn


class Denoiser(nn.Module):
    def __init__(self, ch=3, width=32):
        super().__init__()
        self.width = width
        self.t_proj = nn.Linear(width, width)
        self.inp = nn.Conv2d(ch, width, 3, padding=1)
        self.mid = nn.Conv2d(width, width, 3, padding=1)
        self.outp = nn.Conv2d(width, ch, 3, padding=1)

    def forward(self, x, t):
        half = self.width // 2
        freqs = torch.exp(torch.arange(half, dtype=torch.float32, device=x.device) * (-math.log(10000.0) / half))
        ang = t.to(torch.float32)[:, None] * freqs[None, :]
        temb = self.t_proj(torch.cat([torch.sin(ang), torch.cos(ang)], dim=1))
        h = torch.relu(self.inp(x) + temb[:, :, None, None])
        return self.outp(torch.relu(self.mid(h)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", default="")
    ap.add_argument("--onnx", default="denoiser.onnx")
    ap.add_argument("--ts", default="denoiser.ts")
    ap.add_argument("--size", type=int, default=32)
    ap.add_argument("--check-only", action="store_true")
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Denoiser()
    if args.ckpt and os.path.isfile(args.ckpt):
        sd = torch.load(args.ckpt, map_location="cpu")
        model.load_state_dict(sd.get("ema", sd))
    model = model.to(device).eval()

    param_device = next(model.parameters()).device
    dummy_x = torch.randn(2, 3, args.size, args.size, device=param_device)
    dummy_t = torch.randint(0, 1000, (2,), device=param_device)

    with torch.no_grad():
        ref = model(dummy_x, dummy_t)
        traced = torch.jit.trace(model, (dummy_x, dummy_t))
        out = traced(dummy_x, dummy_t)
    np.testing.assert_allclose(ref.cpu().numpy(), out.cpu().numpy(), rtol=1e-4, atol=1e-5)
    print("trace matches eager:", tuple(out.shape))
    if args.check_only:
        return

    traced.save(args.ts)
    # export from a CPU copy so the graph has no device-specific constants
    cpu_model = model.cpu()
    torch.onnx.export(cpu_model, (dummy_x.cpu(), dummy_t.cpu()), args.onnx, input_names=["x_t", "t"],
                      output_names=["eps"], dynamic_axes={"x_t": {0: "batch"}, "t": {0: "batch"}},
                      opset_version=17, dynamo=False)
    print("exported", args.ts, args.onnx)


if __name__ == "__main__":
    main()
