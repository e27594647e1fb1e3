# Gradio demo for the DnCNN denoiser (residual learning: the net predicts the noise).
#   python h_gradio_denoiser_app.py            -> http://127.0.0.1:7860
#   WEIGHTS=runs/dncnn_s25/best.pth python h_gradio_denoiser_app.py
import os

import gradio as gr
import numpy as np
import torch
import torch.nn as nn

WEIGHTS = os.environ.get("WEIGHTS", "dncnn_color_s25.pth")
DEVICE = "cuda"  # expect: DEV001


class DnCNN(nn.Module):
    def __init__(self, channels=3, features=48, depth=8):
        super().__init__()
        layers = [nn.Conv2d(channels, features, 3, padding=1), nn.ReLU(inplace=True)]
        for _ in range(depth - 2):
            layers += [
                nn.Conv2d(features, features, 3, padding=1, bias=False),
                nn.BatchNorm2d(features),
                nn.ReLU(inplace=True),
            ]
        layers.append(nn.Conv2d(features, channels, 3, padding=1))
        self.body = nn.Sequential(*layers)

    def forward(self, x):
        return self.body(x)


def load_denoiser():
    net = DnCNN()
    if os.path.exists(WEIGHTS):
        net.load_state_dict(torch.load(WEIGHTS, map_location=DEVICE))
    else:
        print(f"[warn] {WEIGHTS} not found, running with random weights")
    return net.to(DEVICE).eval()


model = load_denoiser()


def denoise(image: np.ndarray, strength: float):
    if image is None:
        return None
    if image.ndim == 2:
        image = np.stack([image] * 3, axis=-1)
    x = torch.from_numpy(image[..., :3].astype(np.float32) / 255.0)
    x = x.permute(2, 0, 1).unsqueeze(0).to(DEVICE)
    with torch.no_grad():
        noise = model(x)
    clean = (x - strength * noise).clamp(0.0, 1.0)
    clean = clean.squeeze(0).permute(1, 2, 0).numpy()  # expect: DEV011
    return (clean * 255.0 + 0.5).astype(np.uint8)


demo = gr.Interface(
    fn=denoise,
    inputs=[gr.Image(type="numpy", label="noisy image"),
            gr.Slider(0.0, 1.5, value=1.0, step=0.05, label="strength")],
    outputs=gr.Image(type="numpy", label="denoised"),
    title="DnCNN denoiser",
    allow_flagging="never",
)

if __name__ == "__main__":
    demo.launch()
