"""Gradio demo: upload a satellite RGB tile, get a building-footprint mask overlay."""
import numpy as np
import torch
import torch.nn as nn
import gradio as gr


class FootprintNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
            nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
            nn.Conv2d(16, 1, 1),
        )

    def forward(self, x):
        return self.body(x)


model = FootprintNet()
weights = "footprint_net.pt"
try:
    model.load_state_dict(torch.load(weights, map_location="cpu"))
except FileNotFoundError:
    print(f"{weights} not found, serving random weights")
model = model.cuda().eval()  # expect: DEV001

MEAN = np.array([0.485, 0.456, 0.406], dtype=np.float32)
STD = np.array([0.229, 0.224, 0.225], dtype=np.float32)


def segment(image, threshold):
    if image is None:
        return None
    img = image.astype(np.float32) / 255.0
    img = (img - MEAN) / STD
    x = torch.from_numpy(img).permute(2, 0, 1).unsqueeze(0)
    x.to("cuda")  # expect: DEV005
    with torch.no_grad():
        prob = torch.sigmoid(model(x))[0, 0]  # also: DEV002
    mask = (prob > threshold).cpu().numpy()
    overlay = image.copy()
    overlay[mask] = (0.5 * overlay[mask] + 0.5 * np.array([255, 0, 0])).astype(np.uint8)
    return overlay


demo = gr.Interface(
    fn=segment,
    inputs=[gr.Image(type="numpy", label="RGB tile"), gr.Slider(0.05, 0.95, value=0.5, label="threshold")],
    outputs=gr.Image(type="numpy", label="footprints"),
    title="Building footprints",
)

if __name__ == "__main__":
    demo.launch()
