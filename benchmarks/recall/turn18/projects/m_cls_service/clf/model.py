import torch
import torch.nn as nn


class TicketClassifier(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg.vocab_size, cfg.d_model, padding_idx=0)
        self.register_buffer("positions", torch.arange(cfg.max_len), persistent=False)
        self.pos = nn.Embedding(cfg.max_len, cfg.d_model)
        layer = nn.TransformerEncoderLayer(cfg.d_model, cfg.n_head, 2 * cfg.d_model, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2)
        self.head = nn.Linear(cfg.d_model, cfg.num_classes)
        counts = torch.tensor(cfg.class_counts, dtype=torch.float)
        self.register_buffer("class_weights", counts.sum() / (len(counts) * counts))

    def forward(self, input_ids, attention_mask):
        T = input_ids.size(1)
        x = self.embed(input_ids) + self.pos(self.positions[:T])
        h = self.encoder(x, src_key_padding_mask=attention_mask == 0)
        m = attention_mask.unsqueeze(-1).to(h.dtype)
        return self.head((h * m).sum(1) / m.sum(1).clamp(min=1))

    def loss(self, logits, labels):
        return nn.functional.cross_entropy(logits, labels, weight=self.class_weights)
