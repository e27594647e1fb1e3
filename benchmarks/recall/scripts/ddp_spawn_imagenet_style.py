"""Multi-GPU training with mp.spawn, one worker per GPU, in the style of the ImageNet example."""
import argparse
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def main_worker(gpu, ngpus_per_node, args):
    args.rank = args.node_rank * ngpus_per_node + gpu
    dist.init_process_group(backend="nccl", init_method=args.dist_url, world_size=args.world_size, rank=args.rank)
    model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10))
    torch.cuda.set_device(gpu)
    model.cuda(0)  # expect: DEV013
    model = nn.parallel.DistributedDataParallel(model, device_ids=[0])  # expect: DEV013
    args.batch_size = int(args.batch_size / ngpus_per_node)

    criterion = nn.CrossEntropyLoss().cuda(gpu)
    optimizer = torch.optim.SGD(model.parameters(), args.lr, momentum=0.9, weight_decay=1e-4)
    dataset = TensorDataset(torch.randn(128, 3, 32, 32), torch.randint(0, 10, (128,)))
    sampler = DistributedSampler(dataset)
    loader = DataLoader(dataset, batch_size=args.batch_size, sampler=sampler, pin_memory=True)

    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        for i, (images, target) in enumerate(loader):
            images = images.cuda(gpu, non_blocking=True)
            target = target.cuda(gpu, non_blocking=True)
            output = model(images)
            loss = criterion(output, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if args.rank % ngpus_per_node == 0 and i % 4 == 0:
                print(f"Epoch [{epoch}][{i}/{len(loader)}] loss {loss.item():.4f}")
    dist.destroy_process_group()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--node-rank", type=int, default=0)
    parser.add_argument("--nodes", type=int, default=1)
    parser.add_argument("--dist-url", default="tcp://127.0.0.1:23456")
    args = parser.parse_args()
    ngpus_per_node = torch.cuda.device_count()
    args.world_size = ngpus_per_node * args.nodes
    os.environ.setdefault("NCCL_DEBUG", "WARN")
    mp.spawn(main_worker, nprocs=ngpus_per_node, args=(ngpus_per_node, args))


if __name__ == "__main__":
    main()
