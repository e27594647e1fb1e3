"""Inference server warm-up that pins the process to the second GPU when CUDA is present."""
import torch
import torch.nn as nn

if torch.cuda.is_available():
    torch.cuda.set_device(1)  # expect: DEV018
    device = torch.device("cuda")
else:
    device = torch.device("cpu")

model = nn.Sequential(nn.Linear(128, 256), nn.ReLU(), nn.Linear(256, 8)).to(device).eval()
with torch.inference_mode():
    for batch in range(3):
        x = torch.randn(4, 128, device=device)
        print(model(x).softmax(-1).argmax(-1).tolist())
