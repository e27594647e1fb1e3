"""Encoder-decoder Transformer for toy translation, with greedy decoding after training."""
import torch
import torch.nn as nn

SRC_VOCAB, TGT_VOCAB, BOS, EOS, D = 30, 30, 1, 2, 32


class Seq2SeqTransformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.src_emb = nn.Embedding(SRC_VOCAB, D)
        self.tgt_emb = nn.Embedding(TGT_VOCAB, D)
        self.transformer = nn.Transformer(D, nhead=4, num_encoder_layers=1, num_decoder_layers=1,
                                          dim_feedforward=64, batch_first=True)
        self.generator = nn.Linear(D, TGT_VOCAB)

    def encode(self, src):
        return self.transformer.encoder(self.src_emb(src))

    def decode(self, memory, tgt, tgt_mask):
        return self.generator(self.transformer.decoder(self.tgt_emb(tgt), memory, tgt_mask=tgt_mask))

    def forward(self, src, tgt_in):
        mask = self.transformer.generate_square_subsequent_mask(tgt_in.size(1), device=src.device)
        return self.decode(self.encode(src), tgt_in, mask)


def greedy_decode(model, src, max_len):
    memory = model.encode(src)
    ys = torch.full((1, 1), BOS, dtype=torch.long, device=src.device)
    for _ in range(max_len - 1):
        tgt_mask = torch.triu(torch.ones(ys.size(1), ys.size(1)), diagonal=1).bool()  # expect: DEV006
        out = model.decode(memory, ys, tgt_mask)
        next_word = out[:, -1].argmax(dim=-1).item()
        ys = torch.cat([ys, torch.tensor([[next_word]])], dim=1)  # expect: DEV006
        if next_word == EOS:
            break
    return ys


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = Seq2SeqTransformer().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()
for step in range(3):
    src = torch.randint(3, SRC_VOCAB, (4, 6)).to(device)
    tgt = torch.cat([torch.full((4, 1), BOS), torch.randint(3, TGT_VOCAB, (4, 6))], dim=1).to(device)
    logits = model(src, tgt[:, :-1])
    loss = criterion(logits.reshape(-1, TGT_VOCAB), tgt[:, 1:].reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    print("decoded:", greedy_decode(model, src[:1], max_len=8).tolist())
