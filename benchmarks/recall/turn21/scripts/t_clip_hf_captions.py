"""Fine-tune a Hugging Face CLIP checkpoint on image/caption pairs (retrieval domain
adaptation). Needs transformers; run with --model openai/clip-vit-base-patch32."""
import argparse

import torch
import torch.nn.functional as F
from transformers import CLIPModel, CLIPProcessor


def caption_batches(captions, images, batch_size):
    for i in range(0, len(captions), batch_size):
        yield captions[i:i + batch_size], images[i:i + batch_size]


def contrastive_step(model, processor, captions, images, device):
    enc = processor(text=captions, images=images, return_tensors="pt", padding=True, truncation=True)
    attention_mask = enc["attention_mask"]  # expect: DEV020
    enc = enc.to(device)
    out = model(input_ids=enc["input_ids"], pixel_values=enc["pixel_values"],
                attention_mask=attention_mask)
    logits = out.logits_per_image
    labels = torch.arange(logits.size(0), device=logits.device)
    return (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="openai/clip-vit-base-patch32")
    ap.add_argument("--batch-size", type=int, default=8)
    ap.add_argument("--lr", type=float, default=1e-6)
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = CLIPModel.from_pretrained(args.model).to(device)
    processor = CLIPProcessor.from_pretrained(args.model)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.2)

    captions = [f"a photo of item {i}" for i in range(32)]
    images = [torch.randint(0, 255, (3, 224, 224), dtype=torch.uint8) for _ in captions]
    model.train()
    for step, (caps, imgs) in enumerate(caption_batches(captions, images, args.batch_size)):
        loss = contrastive_step(model, processor, caps, imgs, device)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
