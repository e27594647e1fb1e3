# Gradio front end for the lesion segmenter. Works on the GPU workstation and on the
# CPU-only demo laptop: weights are mapped to whatever device is present.
#   python h_gradio_segmenter_app.py --weights unet_small.pth --share
import argparse
import os

import gradio as gr
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")
PALETTE = np.array([[0, 0, 0], [230, 25, 75], [60, 180, 75]], dtype=np.uint8)  # bg, lesion, margin
MEAN = torch.tensor([0.485, 0.456, 0.406], device=DEVICE).view(1, 3, 1, 1)
STD = torch.tensor([0.229, 0.224, 0.225], device=DEVICE).view(1, 3, 1, 1)


class DoubleConv(nn.Sequential):
    def __init__(self, c_in, c_out):
        super().__init__(
            nn.Conv2d(c_in, c_out, 3, padding=1, bias=False), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True),
            nn.Conv2d(c_out, c_out, 3, padding=1, bias=False), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True),
        )


class SmallUNet(nn.Module):
    def __init__(self, n_classes=3, base=16):
        super().__init__()
        self.enc1 = DoubleConv(3, base)
        self.enc2 = DoubleConv(base, base * 2)
        self.bott = DoubleConv(base * 2, base * 4)
        self.up2 = nn.ConvTranspose2d(base * 4, base * 2, 2, stride=2)
        self.dec2 = DoubleConv(base * 4, base * 2)
        self.up1 = nn.ConvTranspose2d(base * 2, base, 2, stride=2)
        self.dec1 = DoubleConv(base * 2, base)
        self.head = nn.Conv2d(base, n_classes, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(F.max_pool2d(e1, 2))
        b = self.bott(F.max_pool2d(e2, 2))
        d2 = self.dec2(torch.cat([self.up2(b), e2], 1))
        d1 = self.dec1(torch.cat([self.up1(d2), e1], 1))
        return self.head(d1)


def load_model(weights):
    model = SmallUNet()
    if weights and os.path.exists(weights):
        model.load_state_dict(torch.load(weights, map_location=DEVICE))
    return model.to(DEVICE).eval()


MODEL = None


def segment(image: np.ndarray, min_confidence: float):
    if image is None:
        return None, ""
    h, w = image.shape[:2]
    x = torch.from_numpy(image[..., :3]).to(DEVICE).permute(2, 0, 1).unsqueeze(0).float() / 255.0
    x = F.interpolate(x, size=(128, 128), mode="bilinear", align_corners=False)
    x = (x - MEAN) / STD
    with torch.inference_mode():
        probs = MODEL(x).softmax(1)
        probs = F.interpolate(probs, size=(h, w), mode="bilinear", align_corners=False)[0]
    conf, labels = probs.max(0)
    labels[conf < torch.tensor(min_confidence)] = 0  # low-confidence pixels -> background
    labels = labels.cpu().numpy()
    overlay = (0.6 * image[..., :3] + 0.4 * PALETTE[labels]).astype(np.uint8)
    lesion_frac = float((labels == 1).mean())
    return overlay, f"lesion area: {100 * lesion_frac:.1f}% of the image"


def build_demo():
    return gr.Interface(
        fn=segment,
        inputs=[gr.Image(type="numpy", label="dermoscopy image"),
                gr.Slider(0.0, 1.0, value=0.5, label="min confidence")],
        outputs=[gr.Image(type="numpy", label="overlay"), gr.Textbox(label="summary")],
        title="Lesion segmentation (research use only)",
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--weights", default="unet_small.pth")
    parser.add_argument("--share", action="store_true")
    args = parser.parse_args()
    MODEL = load_model(args.weights)
    build_demo().launch(share=args.share)
