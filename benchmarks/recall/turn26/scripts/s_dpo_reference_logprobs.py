"""Minimal DPO fine-tuning loop: policy on the first GPU, frozen reference model on a second one."""
import argparse

import torch
import torch.nn.functional as F
from transformers import AutoModelForCausalLM, AutoTokenizer

PAIRS = [
    ("Q: capital of France?\nA:", " Paris.", " Berlin, probably."),
    ("Q: 2 + 2?\nA:", " 4.", " 22."),
    ("Q: colour of the sky?\nA:", " Blue on a clear day.", " Green."),
    ("Q: boiling point of water?\nA:", " 100 C at sea level.", " 50 C."),
]


def response_logprob(model, enc, labels):
    logits = model(**enc).logits[:, :-1]
    target = labels[:, 1:]
    mask = target != -100
    logp = torch.gather(logits.log_softmax(-1), 2, target.clamp(min=0).unsqueeze(-1)).squeeze(-1)
    return (logp * mask).sum(-1)


def encode(tok, prompts, responses, device):
    enc = tok([p + r for p, r in zip(prompts, responses)], return_tensors="pt", padding=True)
    labels = enc["input_ids"].clone()  # expect: DEV020
    for i, p in enumerate(prompts):
        labels[i, : len(tok(p)["input_ids"])] = -100
    labels[enc["attention_mask"] == 0] = -100
    enc = enc.to(device)
    return enc, labels


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="sshleifer/tiny-gpt2")
    ap.add_argument("--beta", type=float, default=0.1)
    ap.add_argument("--steps", type=int, default=4)
    args = ap.parse_args()

    policy_device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    ref_device = torch.device("cuda:1" if torch.cuda.is_available() else "cpu")  # expect: DEV018

    tok = AutoTokenizer.from_pretrained(args.model)
    tok.pad_token = tok.eos_token
    tok.padding_side = "right"
    policy = AutoModelForCausalLM.from_pretrained(args.model).to(policy_device)
    reference = AutoModelForCausalLM.from_pretrained(args.model).eval()
    opt = torch.optim.AdamW(policy.parameters(), lr=5e-6)

    prompts, chosen, rejected = map(list, zip(*PAIRS))
    for step in range(args.steps):
        reference.to(ref_device)  # expect: DEV007
        c_enc, c_lab = encode(tok, prompts, chosen, policy_device)
        r_enc, r_lab = encode(tok, prompts, rejected, policy_device)
        pi_c = response_logprob(policy, c_enc, c_lab)
        pi_r = response_logprob(policy, r_enc, r_lab)
        with torch.no_grad():
            ref_c = response_logprob(reference, c_enc.to(ref_device), c_lab.to(ref_device))
            ref_r = response_logprob(reference, r_enc.to(ref_device), r_lab.to(ref_device))
        margin = (pi_c - pi_r) - (ref_c - ref_r).to(policy_device)
        loss = -F.logsigmoid(args.beta * margin).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
