"""Greedy generation with a custom LogitsProcessor that boosts a few domain words: the bias over
the vocabulary is built once, when the processor is created.

Thread: https://github.com/huggingface/transformers/pull/32559 (tensors handed to generate() must
be on the same device as input_ids).
"""
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer, LogitsProcessor, LogitsProcessorList


class VocabBias(LogitsProcessor):
    def __init__(self, vocab_size, boosted_ids, boost=3.0):
        self.bias = torch.zeros(vocab_size)  # expect: DEV006
        self.bias[boosted_ids] = boost

    def __call__(self, input_ids, scores):
        return scores + self.bias


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tokenizer = AutoTokenizer.from_pretrained("gpt2")
    model = AutoModelForCausalLM.from_pretrained("gpt2").to(device).eval()
    words = [" tensor", " gradient", " kernel", " device"]
    boosted = [tokenizer(w, add_special_tokens=False)["input_ids"][0] for w in words]
    processors = LogitsProcessorList([VocabBias(model.config.vocab_size, boosted)])
    for text in ["The job crashed because the", "To speed up training, move the"]:
        enc = tokenizer(text, return_tensors="pt").to(device)
        out = model.generate(**enc, max_new_tokens=16, do_sample=False, logits_processor=processors,
                             pad_token_id=tokenizer.eos_token_id)
        print(tokenizer.decode(out[0], skip_special_tokens=True))


if __name__ == "__main__":
    main()
