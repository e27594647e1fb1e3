"""LoRA fine-tuning of a small encoder."""
