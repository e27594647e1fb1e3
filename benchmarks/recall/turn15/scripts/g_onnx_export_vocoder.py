"""Export a trained mel->waveform vocoder to ONNX for the inference server.

    python g_onnx_export_vocoder.py --ckpt runs/vocoder/best.pt --out vocoder.onnx
"""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

N_MELS = 80
HOP = 256


class ResBlock(nn.Module):
    def __init__(self, ch, dilation):
        super().__init__()
        self.c1 = nn.Conv1d(ch, ch, 3, dilation=dilation, padding=dilation)
        self.c2 = nn.Conv1d(ch, ch, 3, padding=1)

    def forward(self, x):
        return x + self.c2(F.leaky_relu(self.c1(F.leaky_relu(x, 0.1)), 0.1))


class TinyVocoder(nn.Module):
    def __init__(self, ch=64):
        super().__init__()
        self.pre = nn.Conv1d(N_MELS, ch, 7, padding=3)
        ups, c = [], ch
        for r in (8, 8, 4):
            ups += [nn.ConvTranspose1d(c, c // 2, 2 * r, stride=r, padding=r // 2), ResBlock(c // 2, 1),
                    ResBlock(c // 2, 3)]
            c //= 2
        self.ups = nn.Sequential(*ups)
        self.post = nn.Conv1d(c, 1, 7, padding=3)

    def forward(self, mel):
        return torch.tanh(self.post(F.leaky_relu(self.ups(self.pre(mel)), 0.1))).squeeze(1)


def load_generator(path, device):
    model = TinyVocoder()
    if path and os.path.exists(path):
        state = torch.load(path)  # expect: DEV008
        model.load_state_dict(state["generator"] if "generator" in state else state)
        print(f"loaded {path}")
    else:
        print("no checkpoint given, exporting randomly initialised weights")
    return model.to(device).eval()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", default="")
    ap.add_argument("--out", default="vocoder.onnx")
    ap.add_argument("--frames", type=int, default=32)
    ap.add_argument("--opset", type=int, default=17)
    ap.add_argument("--check-only", action="store_true")
    args = ap.parse_args()

    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = load_generator(args.ckpt, device)

    dummy_mel = torch.randn(1, N_MELS, args.frames)  # expect: DEV006
    with torch.no_grad():
        wav = model(dummy_mel)
    assert wav.shape[-1] == args.frames * HOP, wav.shape
    print("sanity forward ok:", tuple(wav.shape))
    if args.check_only:
        return

    torch.onnx.export(
        model, (dummy_mel,), args.out, opset_version=args.opset,
        input_names=["mel"], output_names=["audio"],
        dynamic_axes={"mel": {0: "batch", 2: "frames"}, "audio": {0: "batch", 1: "samples"}},
        dynamo=False,
    )
    print("wrote", args.out)


if __name__ == "__main__":
    main()
