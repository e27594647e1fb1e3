"""Pairwise reward-model training (Bradley-Terry loss) with DDP.

    torchrun --nproc_per_node=4 e_torchrun_reward_model.py --init-from sft.pt
"""
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler


class PreferencePairs(Dataset):
    def __init__(self, n, seq_len=32, vocab=1000, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.chosen = torch.randint(1, vocab, (n, seq_len), generator=g)
        self.rejected = torch.randint(1, vocab, (n, seq_len), generator=g)

    def __len__(self):
        return self.chosen.size(0)

    def __getitem__(self, i):
        return self.chosen[i], self.rejected[i]


class RewardModel(nn.Module):
    def __init__(self, vocab=1000, d_model=128, n_layer=2, n_head=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        layer = nn.TransformerEncoderLayer(d_model, n_head, 4 * d_model, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layer)
        self.value_head = nn.Linear(d_model, 1)

    def forward(self, ids):
        h = self.encoder(self.embed(ids))
        return self.value_head(h[:, -1]).squeeze(-1)


def load_sft_weights(model, path):
    state = torch.load(path, map_location="cuda:0")  # expect: DEV013
    missing, unexpected = model.load_state_dict(state, strict=False)
    if dist.get_rank() == 0:
        print(f"loaded {path}: {len(missing)} missing, {len(unexpected)} unexpected keys")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--init-from", default=None)
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--lr", type=float, default=1e-5)
    args = ap.parse_args()

    dist.init_process_group(backend="nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    device = torch.device("cuda", local_rank)

    model = RewardModel()
    if args.init_from and os.path.exists(args.init_from):
        load_sft_weights(model, args.init_from)
    model = DDP(model, device_ids=[local_rank], output_device=local_rank)  # expect: DEV014
    model.to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)

    dataset = PreferencePairs(2048)
    sampler = DistributedSampler(dataset, shuffle=True)
    loader = DataLoader(dataset, batch_size=16, sampler=sampler, pin_memory=True)

    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        model.train()
        for chosen, rejected in loader:
            chosen, rejected = chosen.to(device, non_blocking=True), rejected.to(device, non_blocking=True)
            rewards = model(torch.cat([chosen, rejected]))
            r_chosen, r_rejected = rewards.chunk(2)
            loss = -F.logsigmoid(r_chosen - r_rejected).mean()
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
        acc = (r_chosen > r_rejected).float().mean()
        dist.all_reduce(acc, op=dist.ReduceOp.AVG)
        if dist.get_rank() == 0:
            print(f"epoch {epoch}: loss {loss.item():.4f} pair acc {acc.item():.3f}")

    dist.destroy_process_group()


if __name__ == "__main__":
    main()
