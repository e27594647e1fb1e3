"""Unit tests for a small beam-search decoder; one test checks that decoding on the GPU gives
the same beams as on the CPU."""
import torch
import torch.nn as nn


class ToyLM(nn.Module):
    def __init__(self, vocab=12):
        super().__init__()
        torch.manual_seed(0)
        self.emb = nn.Embedding(vocab, 16)
        self.out = nn.Linear(16, vocab)

    def forward(self, idx):
        return self.out(self.emb(idx).mean(1))


def beam_search(model, start, width=3, steps=4):
    beams = [(start, 0.0)]
    for _ in range(steps):
        cand = []
        for seq, score in beams:
            logp = model(seq).log_softmax(-1)[0]
            top = logp.topk(width)
            for lp, tok in zip(top.values.tolist(), top.indices.tolist()):
                nxt = torch.cat([seq, seq.new_tensor([[tok]])], dim=1)
                cand.append((nxt, score + lp))
        beams = sorted(cand, key=lambda b: -b[1])[:width]
    return beams


def test_beam_width_respected():
    beams = beam_search(ToyLM(), torch.tensor([[1]]))
    assert len(beams) == 3


def test_scores_sorted():
    scores = [s for _, s in beam_search(ToyLM(), torch.tensor([[2]]))]
    assert scores == sorted(scores, reverse=True)


def test_gpu_matches_cpu():
    model = ToyLM()
    cpu_beams = beam_search(model, torch.tensor([[3]]))
    gpu_model = ToyLM().cuda()  # expect: DEV022
    gpu_beams = beam_search(gpu_model, torch.tensor([[3]]).cuda())
    for (a, sa), (b, sb) in zip(cpu_beams, gpu_beams):
        assert torch.equal(a, b.cpu())
        assert abs(sa - sb) < 1e-4
