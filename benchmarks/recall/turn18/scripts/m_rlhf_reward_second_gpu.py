"""Best-of-n sampling scored by a reward model (toy RLHF evaluation).

The policy generates n continuations per prompt; a separate reward model scores
them and we keep the best one. The reward model lives on its own card so the
policy keeps the first GPU to itself.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB = 100


class Policy(nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, d)
        self.gru = nn.GRU(d, d, batch_first=True)
        self.head = nn.Linear(d, VOCAB)

    def forward(self, ids, h=None):
        out, h = self.gru(self.emb(ids), h)
        return self.head(out), h


class RewardModel(nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, d)
        self.enc = nn.GRU(d, d, batch_first=True)
        self.score = nn.Linear(d, 1)

    def forward(self, ids):
        _, h = self.enc(self.emb(ids))
        return self.score(h[-1]).squeeze(-1)


@torch.no_grad()
def sample(policy, prompt, n, max_new, temperature, device):
    ids = prompt.repeat(n, 1).to(device)
    logits, h = policy(ids)
    out = [ids]
    for _ in range(max_new):
        probs = F.softmax(logits[:, -1] / temperature, dim=-1)
        nxt = torch.multinomial(probs, 1)
        out.append(nxt)
        logits, h = policy(nxt, h)
    return torch.cat(out, dim=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=8)
    ap.add_argument("--max_new", type=int, default=16)
    ap.add_argument("--temperature", type=float, default=1.0)
    args = ap.parse_args()

    policy_device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    reward_device = torch.device("cuda:1" if torch.cuda.is_available() else "cpu")  # expect: DEV018

    torch.manual_seed(0)
    policy = Policy().to(policy_device).eval()
    reward_model = RewardModel().to(reward_device).eval()

    prompts = [torch.randint(0, VOCAB, (1, 6)) for _ in range(4)]
    for i, prompt in enumerate(prompts):
        cands = sample(policy, prompt, args.n, args.max_new, args.temperature, policy_device)
        with torch.no_grad():
            rewards = reward_model(cands.to(reward_device))
        best = rewards.argmax().item()
        print(f"prompt {i}: best reward {rewards[best].item():+.3f} mean {rewards.mean().item():+.3f}")


if __name__ == "__main__":
    main()
