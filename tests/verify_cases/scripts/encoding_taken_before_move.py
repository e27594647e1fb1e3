"""A tokenizer's BatchEncoding moved with `enc = enc.to(device)`, but the ids were taken out of
it before the move (DEV020): they stay on the CPU and meet the device embedding. The tokenizer
is a word-level one built here, so the script needs no download."""
import torch
import torch.nn as nn
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import PreTrainedTokenizerFast

torch.manual_seed(0)
words = "the cat sat on a mat dog ran far".split()
core = Tokenizer(models.WordLevel({"[UNK]": 0, "[PAD]": 1, **{w: i + 2 for i, w in
                                                               enumerate(words)}},
                                  unk_token="[UNK]"))
core.pre_tokenizer = pre_tokenizers.Whitespace()
tokenizer = PreTrainedTokenizerFast(tokenizer_object=core, unk_token="[UNK]", pad_token="[PAD]")

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.EmbeddingBag(len(words) + 2, 2).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
sentences = ["the cat sat on a mat", "a dog ran far", "the dog sat"]
for step in range(10):
    enc = tokenizer(sentences, return_tensors="pt", padding=True)
    input_ids = enc["input_ids"]
    enc = enc.to(device)
    loss = model(input_ids).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
