"""Fine-tune a (tiny, randomly initialised) BART on a toy en->"pig latin" corpus and
translate a few sentences with beam search.

Everything is built in memory: word-level tokenizer from the corpus, BartConfig with
two layers, so it runs on a laptop in seconds.
"""
import random

import torch
from tokenizers import Tokenizer, models, pre_tokenizers, processors
from transformers import BartConfig, BartForConditionalGeneration, PreTrainedTokenizerFast

WORDS = ("the cat dog sat ran on under a red blue mat box fast slow big small "
         "bird fish ate saw my your house tree").split()


def pig(word):
    return word[1:] + word[0] + "ay"


def make_corpus(n=400, seed=0):
    rng = random.Random(seed)
    pairs = []
    for _ in range(n):
        sent = [rng.choice(WORDS) for _ in range(rng.randint(3, 7))]
        pairs.append((" ".join(sent), " ".join(pig(w) for w in sent)))
    return pairs


def build_tokenizer(pairs):
    specials = ["<pad>", "<s>", "</s>", "<unk>"]
    vocab = {tok: i for i, tok in enumerate(specials)}
    for src, tgt in pairs:
        for w in (src + " " + tgt).split():
            vocab.setdefault(w, len(vocab))
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", special_tokens=[("<s>", 1), ("</s>", 2)])
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", bos_token="<s>",
                                   eos_token="</s>", unk_token="<unk>")


def build_model(tokenizer):
    config = BartConfig(
        vocab_size=len(tokenizer), d_model=64, encoder_layers=2, decoder_layers=2,
        encoder_attention_heads=4, decoder_attention_heads=4,
        encoder_ffn_dim=128, decoder_ffn_dim=128, max_position_embeddings=64,
        pad_token_id=tokenizer.pad_token_id, bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id, decoder_start_token_id=tokenizer.eos_token_id,
        forced_eos_token_id=tokenizer.eos_token_id,
    )
    return BartForConditionalGeneration(config)


def train(model, tokenizer, pairs, device, epochs=3, batch_size=32, lr=3e-3):
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    model.train()
    for epoch in range(epochs):
        random.shuffle(pairs)
        total = 0.0
        for i in range(0, len(pairs), batch_size):
            chunk = pairs[i:i + batch_size]
            enc = tokenizer([s for s, _ in chunk], text_target=[t for _, t in chunk],
                            padding=True, return_tensors="pt")
            labels = enc["labels"]  # expect: DEV020
            labels[labels == tokenizer.pad_token_id] = -100
            enc = enc.to(device)
            out = model(input_ids=enc["input_ids"], attention_mask=enc["attention_mask"],
                        labels=labels)
            out.loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            total += out.loss.item()
        print(f"epoch {epoch}: loss {total / (len(pairs) // batch_size + 1):.3f}")


def translate(model, tokenizer, sentences, device, num_beams=4):
    model.eval()
    inputs = tokenizer(sentences, padding=True, return_tensors="pt")
    input_ids, attention_mask = inputs["input_ids"], inputs["attention_mask"]  # expect: DEV020
    inputs.to(device)
    with torch.no_grad():
        generated = model.generate(input_ids=input_ids, attention_mask=attention_mask,
                                   num_beams=num_beams, max_new_tokens=12, early_stopping=True)
    return tokenizer.batch_decode(generated, skip_special_tokens=True)


def main():
    torch.manual_seed(0)
    random.seed(0)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    pairs = make_corpus()
    tokenizer = build_tokenizer(pairs)
    model = build_model(tokenizer).to(device)
    train(model, tokenizer, pairs, device)
    tests = ["the cat sat on a mat", "my big dog ran fast", "a small bird saw the fish"]
    for src, hyp in zip(tests, translate(model, tokenizer, tests, device)):
        print(f"{src!r} -> {hyp!r}")


if __name__ == "__main__":
    main()
