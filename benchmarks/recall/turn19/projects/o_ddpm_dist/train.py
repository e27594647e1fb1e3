"""Train a DDPM on synthetic 16x16 color patches.

    python train.py --epochs 2
    torchrun --nproc_per_node 2 train.py --epochs 2
"""
import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

from ddpm_dist import GaussianDiffusion, Unet
from ddpm_dist.dist_utils import cleanup, is_main_process, setup_distributed, unwrap, wrap_model
from ddpm_dist.images import save_grid


def synthetic_patches(n=128, size=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    base = torch.rand(n, 3, 1, 1, generator=g) * 2 - 1
    yy = torch.linspace(-1, 1, size).view(1, 1, size, 1)
    return (base * yy.abs()).expand(n, 3, size, size).contiguous()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--timesteps", type=int, default=50)
    ap.add_argument("--lr", type=float, default=2e-4)
    ap.add_argument("--samples", default="samples.png")
    args = ap.parse_args()

    rank, world_size, device = setup_distributed()
    torch.manual_seed(1234 + rank)

    dataset = TensorDataset(synthetic_patches())
    sampler = DistributedSampler(dataset, world_size, rank) if world_size > 1 else None
    loader = DataLoader(dataset, batch_size=args.batch_size, shuffle=sampler is None, sampler=sampler,
                        drop_last=True)

    model = wrap_model(Unet(dim=16), device)
    diffusion = GaussianDiffusion(timesteps=args.timesteps).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        if sampler is not None:
            sampler.set_epoch(epoch)
        for (x0,) in loader:
            loss = diffusion.training_loss(model, x0.to(device))
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
        if is_main_process():
            print(f"epoch {epoch}: loss {loss.item():.4f}")

    if is_main_process():
        samples = diffusion.sample(unwrap(model), (8, 3, 16, 16))
        save_grid(samples, args.samples)
        torch.save(unwrap(model).state_dict(), "unet.pt")
    cleanup()


if __name__ == "__main__":
    main()
