import torch
import torch.nn.functional as F


@torch.no_grad()
def generate(model, idx, max_new_tokens, temperature=1.0, top_k=None):
    model.eval()
    for _ in range(max_new_tokens):
        idx_cond = idx[:, -model.block_size:]
        logits, _ = model(idx_cond)
        logits = logits[:, -1, :] / temperature
        if top_k is not None:
            v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
            logits[logits < v[:, [-1]]] = -float("inf")
        idx_next = torch.multinomial(F.softmax(logits, dim=-1), num_samples=1)
        idx = torch.cat((idx, idx_next), dim=1)
    return idx


def sample_text(model, vocab, prompt, length, device, temperature=0.8, top_k=10):
    start = torch.tensor([vocab.encode(prompt)], dtype=torch.long, device=device)
    out = generate(model, start, length, temperature=temperature, top_k=top_k)
    return vocab.decode(out[0].numpy())  # expect: DEV011
