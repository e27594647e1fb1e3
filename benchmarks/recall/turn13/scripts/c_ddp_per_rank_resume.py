"""torchrun DDP training of a contrastive text/audio dual encoder with resume and an EMA copy.

Launch: torchrun --nproc_per_node=2 c_ddp_per_rank_resume.py --resume ckpt.pt

Correct look-alike, written from pytorch/examples "DDP: why does every process allocate memory
of GPU 0 and how to avoid it?" (set_device per rank, map_location on torch.load), apex "GPU
usage in DistributedDataParallel?" and pytorch "Optimizer.load_state_dict() causes error:
different GPU": each rank binds its own LOCAL_RANK device, the model is moved before the DDP
wrap, the checkpoint is mapped onto this rank's device after the move, and the EMA copy is
taken from the moved model.
"""
import argparse
import copy
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP


class DualEncoder(nn.Module):
    def __init__(self, text_dim=32, audio_dim=48, dim=64):
        super().__init__()
        self.text = nn.Sequential(nn.Linear(text_dim, 128), nn.ReLU(), nn.Linear(128, dim))
        self.audio = nn.Sequential(nn.Linear(audio_dim, 128), nn.ReLU(), nn.Linear(128, dim))
        self.logit_scale = nn.Parameter(torch.tensor(2.659))

    def forward(self, t, a):
        return F.normalize(self.text(t), dim=-1), F.normalize(self.audio(a), dim=-1), self.logit_scale.exp()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--resume", default="")
    ap.add_argument("--steps", type=int, default=200)
    args = ap.parse_args()

    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    if torch.cuda.is_available():
        torch.cuda.set_device(local_rank)
        device = torch.device("cuda", local_rank)
        dist.init_process_group("nccl")
    else:
        device = torch.device("cpu")
        dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(1234 + rank)

    model = DualEncoder().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    start = 0
    if args.resume and os.path.exists(args.resume):
        ckpt = torch.load(args.resume, map_location=device)
        model.load_state_dict(ckpt["model"])
        opt.load_state_dict(ckpt["opt"])
        start = ckpt["step"]
    ema = copy.deepcopy(model).requires_grad_(False)
    ddp = DDP(model, device_ids=[local_rank] if device.type == "cuda" else None)

    proj_t = torch.randn(16, 32, generator=torch.Generator().manual_seed(0))
    proj_a = torch.randn(16, 48, generator=torch.Generator().manual_seed(1))
    for step in range(start, args.steps):
        latent = torch.randn(64, 16)
        text = (latent @ proj_t + 0.1 * torch.randn(64, 32)).to(device, non_blocking=True)
        audio = (latent @ proj_a + 0.1 * torch.randn(64, 48)).to(device, non_blocking=True)
        zt, za, scale = ddp(text, audio)
        logits = scale * zt @ za.t()
        targets = torch.arange(logits.size(0), device=logits.device)
        loss = (F.cross_entropy(logits, targets) + F.cross_entropy(logits.t(), targets)) / 2
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        with torch.no_grad():
            for pe, p in zip(ema.parameters(), model.parameters()):
                pe.lerp_(p, 0.02)
        if rank == 0 and (step + 1) % 50 == 0:
            print(f"step {step + 1} loss {loss.item():.4f}")
            torch.save({"model": model.state_dict(), "opt": opt.state_dict(),
                        "ema": ema.state_dict(), "step": step + 1}, "dual_encoder_ckpt.pt")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
