"""Best-of-n sampling scored by a frozen reward model, with the policy trained
by accelerate on the preferred completions (a small rejection-sampling loop).

The reward model is big, so it goes on its own GPU when there is one.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator


class TinyLM(nn.Module):
    def __init__(self, vocab=64, dim=48):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.cell = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        h, _ = self.cell(self.emb(ids))
        return self.head(h)

    @torch.no_grad()
    def sample(self, prompt, steps=8, temperature=1.0):
        ids = prompt
        for _ in range(steps):
            logits = self(ids)[:, -1] / temperature
            nxt = torch.multinomial(F.softmax(logits, -1), 1)
            ids = torch.cat([ids, nxt], dim=1)
        return ids


class RewardModel(nn.Module):
    def __init__(self, vocab=64, dim=32):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim)
        self.score = nn.Linear(dim, 1)

    def forward(self, ids):
        return self.score(self.emb(ids)).squeeze(-1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--n", type=int, default=4)
    args = parser.parse_args()

    accelerator = Accelerator()
    reward_device = torch.device("cuda:1" if torch.cuda.is_available() else "cpu")  # expect: DEV018

    policy = TinyLM()
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
    policy, optimizer = accelerator.prepare(policy, optimizer)
    reward_model = RewardModel().to(reward_device).eval()

    prompts = torch.randint(0, 64, (8, 4), device=accelerator.device)
    for r in range(args.rounds):
        unwrapped = accelerator.unwrap_model(policy)
        candidates = torch.stack([unwrapped.sample(prompts) for _ in range(args.n)], dim=1)
        flat = candidates.flatten(0, 1)
        with torch.no_grad():
            scores = reward_model(flat.to(reward_device)).view(len(prompts), args.n)
        best = scores.argmax(dim=1).to(accelerator.device)
        chosen = candidates[torch.arange(len(prompts), device=accelerator.device), best]

        logits = policy(chosen[:, :-1])
        loss = F.cross_entropy(logits.flatten(0, 1), chosen[:, 1:].flatten())
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
        accelerator.print(f"round {r}: nll {loss.item():.3f} mean best reward {scores.max(1).values.mean().item():.3f}")


if __name__ == "__main__":
    main()
