"""Zero-shot-ish scoring of candidate labels with a masked LM: the encoding is moved
to the model's device before anything is taken out of it."""
import torch
from transformers import AutoModelForMaskedLM, AutoTokenizer

MODEL = "distilroberta-base"


@torch.no_grad()
def score_labels(model, tok, texts, verbalizers, device):
    prompts = [f"{t} Overall it was {tok.mask_token}." for t in texts]
    enc = tok(prompts, return_tensors="pt", padding=True).to(device)
    input_ids = enc["input_ids"]
    logits = model(**enc).logits
    mask_pos = (input_ids == tok.mask_token_id).nonzero(as_tuple=True)
    mask_logits = logits[mask_pos]
    label_ids = torch.tensor([tok.convert_tokens_to_ids(tok.tokenize(" " + w))[0] for w in verbalizers],
                             device=mask_logits.device)
    return mask_logits[:, label_ids].softmax(-1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tok = AutoTokenizer.from_pretrained(MODEL)
    model = AutoModelForMaskedLM.from_pretrained(MODEL).to(device).eval()
    texts = ["The food was cold and the waiter ignored us.", "Lovely staff, would come again!"]
    probs = score_labels(model, tok, texts, ["terrible", "great"], device)
    for t, p in zip(texts, probs.cpu().tolist()):
        print(f"{t[:40]:40s} neg={p[0]:.2f} pos={p[1]:.2f}")


if __name__ == "__main__":
    main()
