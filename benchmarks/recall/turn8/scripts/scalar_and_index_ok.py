"""Legal cross-device mixes: a 0-dim CPU tensor times CUDA tensors, CPU index tensors picking rows
of CUDA tensors, a Python-int lookup into a CPU table, and strings never moved.

Look-alike of gen_diffusion_schedule_index.py and loss_class_margins_attr.py.
Thread: https://github.com/cxliu0/PET/issues/4 (the error arises only for device indices into a CPU tensor)
"""
import torch
import torch.nn as nn


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = nn.Linear(8, 4).to(device)
    x = torch.randn(16, 8, device=device)
    logits = net(x)
    temperature = torch.tensor(0.7)
    scaled = logits / temperature
    keep = torch.arange(0, 16, 2)
    picked = scaled[keep]
    table = torch.linspace(0.1, 1.0, 10)
    weight = table[3]
    names = ["a", "b", "c"]
    print(picked.shape, (picked * weight).sum().item(), names)


if __name__ == "__main__":
    main()
