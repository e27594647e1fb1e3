"""Transfer learning: a pretrained feature extractor is moved to the GPU, then a projection head
for the new task is attached with add_module.

Thread: https://github.com/huggingface/pytorch-image-models/pull/2743 (classifier head rebuilt on
CPU defaults after the model was moved); https://github.com/MicrosoftDocs/windows-ai-docs/issues/80
(Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same).
"""
import torch
import torch.nn as nn


class Extractor(nn.Sequential):
    def __init__(self):
        super().__init__(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = Extractor().to(device)
    for p in net.parameters():
        p.requires_grad_(False)
    net.add_module("task_head", nn.Linear(16, 7))  # expect: DEV015
    opt = torch.optim.Adam(net.task_head.parameters(), lr=1e-3)
    imgs = torch.randn(8, 3, 32, 32, device=device)
    tgt = torch.randint(0, 7, (8,), device=device)
    loss = nn.functional.cross_entropy(net(imgs), tgt)
    loss.backward()
    opt.step()


if __name__ == "__main__":
    main()
