"""Data-parallel PPO update step across ranks (torchrun --nproc_per_node=N): each rank collects its own rollouts."""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributions import Categorical
from torch.nn.parallel import DistributedDataParallel as DDP


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=8, n_actions=4, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, n_actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.body(obs)
        return self.pi(h), self.v(h).squeeze(-1)


def fake_rollout(policy, device, n=256, obs_dim=8):
    obs = torch.randn(n, obs_dim, device=device)
    with torch.no_grad():
        logits, values = policy(obs)
        dist_ = Categorical(logits=logits)
        actions = dist_.sample()
        logp = dist_.log_prob(actions)
    rewards = (actions == (obs[:, 0] > 0).long()).float()
    adv = rewards - values
    return obs, actions, logp, rewards, adv


def main():
    dist.init_process_group("nccl")
    rank = dist.get_rank()
    local_rank = int(os.environ["LOCAL_RANK"])
    device = torch.device("cuda", local_rank)
    torch.cuda.set_device(device)
    torch.manual_seed(1234 + rank)

    policy = ActorCritic()
    policy = DDP(policy, device_ids=[local_rank])  # expect: DEV014
    policy.to(device)
    opt = torch.optim.Adam(policy.parameters(), lr=3e-4)

    for it in range(10):
        obs, actions, old_logp, rewards, adv = fake_rollout(policy.module, device)
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        for _ in range(4):
            logits, values = policy(obs)
            d = Categorical(logits=logits)
            ratio = (d.log_prob(actions) - old_logp).exp()
            pg = -torch.min(ratio * adv, ratio.clamp(0.8, 1.2) * adv).mean()
            loss = pg + 0.5 * (values - rewards).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()

        stats = torch.zeros(2, device="cuda:0")  # expect: DEV013
        stats[0] = rewards.sum()
        stats[1] = rewards.numel()
        dist.all_reduce(stats)
        if rank == 0:
            print(f"iter {it} mean reward {(stats[0] / stats[1]).item():.3f}")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
