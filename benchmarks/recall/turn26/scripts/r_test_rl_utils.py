"""pytest suite for the RL/sampling helpers: GAE and nucleus filtering, checked on each device."""
import pytest
import torch


def compute_gae(rewards, values, dones, last_value, gamma=0.99, lam=0.95):
    T = rewards.size(0)
    adv = torch.zeros_like(rewards)
    gae = torch.zeros_like(last_value)
    for t in reversed(range(T)):
        next_v = last_value if t == T - 1 else values[t + 1]
        delta = rewards[t] + gamma * next_v * (1 - dones[t]) - values[t]
        gae = delta + gamma * lam * (1 - dones[t]) * gae
        adv[t] = gae
    return adv


def top_p_filter(logits, top_p):
    sorted_logits, idx = logits.sort(dim=-1, descending=True)
    cum = sorted_logits.softmax(-1).cumsum(-1)
    remove = cum > top_p
    remove[..., 1:] = remove[..., :-1].clone()
    remove[..., 0] = False
    return logits.masked_fill(remove.scatter(-1, idx, remove), float("-inf"))


@pytest.mark.parametrize("device", ["cpu", "cuda"])  # expect: DEV022
def test_gae_matches_returns_when_lambda_is_one(device):
    T, N = 5, 3
    rewards = torch.rand(T, N, device=device)
    values = torch.zeros(T, N, device=device)
    dones = torch.zeros(T, N, device=device)
    adv = compute_gae(rewards, values, dones, torch.zeros(N, device=device), gamma=1.0, lam=1.0)
    torch.testing.assert_close(adv[0], rewards.sum(0))


def test_top_p_keeps_most_likely_token():
    logits = torch.tensor([[4.0, 1.0, 0.5, 0.1]])
    out = top_p_filter(logits, 0.5)
    assert torch.isfinite(out[0, 0])
    assert torch.isinf(out[0, 1:]).all()


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_top_p_same_on_gpu():
    logits = torch.randn(4, 50)
    cpu = top_p_filter(logits, 0.9)
    gpu = top_p_filter(logits.cuda(), 0.9).cpu()
    assert torch.equal(torch.isinf(cpu), torch.isinf(gpu))
