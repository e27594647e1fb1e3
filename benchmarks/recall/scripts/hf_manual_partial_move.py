"""Token classification (NER-style) loop that unpacks the dict batch field by field."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

NUM_TAGS, VOCAB, SEQ = 5, 64, 10


class NerDataset(Dataset):
    def __init__(self, n=20):
        self.input_ids = torch.randint(1, VOCAB, (n, SEQ))
        lengths = torch.randint(4, SEQ + 1, (n,))
        self.attention_mask = (torch.arange(SEQ)[None, :] < lengths[:, None]).long()
        self.labels = torch.where(self.attention_mask.bool(), torch.randint(0, NUM_TAGS, (n, SEQ)), torch.full((n, SEQ), -100))

    def __len__(self):
        return len(self.input_ids)

    def __getitem__(self, i):
        return {"input_ids": self.input_ids[i], "attention_mask": self.attention_mask[i], "labels": self.labels[i]}


class TokenTagger(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, dim)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(dim, 4, 64, batch_first=True), 1)
        self.classifier = nn.Linear(dim, NUM_TAGS)

    def forward(self, input_ids, attention_mask):
        h = self.encoder(self.emb(input_ids), src_key_padding_mask=attention_mask == 0)
        return self.classifier(h * attention_mask.unsqueeze(-1))


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = TokenTagger().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4)
loss_fct = nn.CrossEntropyLoss(ignore_index=-100)
train_dataloader = DataLoader(NerDataset(), batch_size=4, shuffle=True)

model.train()
for epoch in range(2):
    for step, batch in enumerate(train_dataloader):
        input_ids = batch["input_ids"].to(device)
        attention_mask = batch["attention_mask"]
        labels = batch["labels"].to(device)
        logits = model(input_ids=input_ids, attention_mask=attention_mask)  # expect: DEV002
        loss = loss_fct(logits.view(-1, NUM_TAGS), labels.view(-1))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    print(f"epoch {epoch} loss {loss.item():.4f}")
