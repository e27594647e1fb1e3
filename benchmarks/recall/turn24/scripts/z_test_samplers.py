"""pytest suite for the decoding helpers: top-p filtering and beam bookkeeping."""
import torch


def top_p_filter(logits, top_p):
    sorted_logits, sorted_idx = torch.sort(logits, descending=True, dim=-1)
    cum = sorted_logits.softmax(-1).cumsum(-1)
    remove = cum > top_p
    remove[..., 1:] = remove[..., :-1].clone()
    remove[..., 0] = False
    return logits.masked_fill(remove.scatter(-1, sorted_idx, remove), float("-inf"))


def beam_step(beam_scores, logprobs, beam_size):
    batch, vocab = beam_scores.size(0), logprobs.size(-1)
    total = (beam_scores.unsqueeze(-1) + logprobs).view(batch, -1)
    top, flat = total.topk(beam_size, dim=-1)
    return top, flat // vocab, flat % vocab


def test_top_p_keeps_argmax():
    logits = torch.randn(3, 50)
    out = top_p_filter(logits, 0.01)
    assert torch.equal(out.argmax(-1), logits.argmax(-1))
    assert torch.isinf(out).sum(-1).min() == 49


def test_top_p_one_keeps_everything():
    logits = torch.randn(2, 10)
    assert torch.isfinite(top_p_filter(logits, 1.0)).all()


def test_top_p_same_on_gpu():
    logits = torch.randn(4, 100)
    expected = top_p_filter(logits, 0.9)
    got = top_p_filter(logits.cuda(), 0.9)  # expect: DEV022
    assert torch.equal(torch.isinf(got.cpu()), torch.isinf(expected))


def test_beam_step_origin_indices():
    scores = torch.tensor([[0.0, -1.0]])
    logprobs = torch.log_softmax(torch.randn(1, 2, 7), -1)
    top, origin, token = beam_step(scores, logprobs, 2)
    assert top.shape == (1, 2)
    assert origin.max() < 2 and token.max() < 7


def test_beam_step_on_device():
    device = torch.device("cuda")  # expect: DEV022
    scores = torch.zeros(2, 3, device=device)
    logprobs = torch.log_softmax(torch.randn(2, 3, 11, device=device), -1)
    top, origin, token = beam_step(scores, logprobs, 3)
    assert top.device == device and origin.device == device
