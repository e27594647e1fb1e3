"""Seq2seq summarisation: a Trainer subclass whose prediction_step pads generated ids to a fixed length."""
import torch
from transformers import AutoModelForSeq2SeqLM, AutoTokenizer, Seq2SeqTrainer, Seq2SeqTrainingArguments

MAX_GEN = 64


class PaddedGenerationTrainer(Seq2SeqTrainer):
    def prediction_step(self, model, inputs, prediction_loss_only, ignore_keys=None, **gen_kwargs):
        inputs = self._prepare_inputs(inputs)
        with torch.no_grad():
            loss = model(**inputs).loss.mean().detach()
            generated = model.generate(input_ids=inputs["input_ids"], attention_mask=inputs["attention_mask"],
                                       max_new_tokens=MAX_GEN, num_beams=2)
        if generated.shape[-1] < MAX_GEN:
            pad = torch.full((generated.shape[0], MAX_GEN - generated.shape[-1]), self.tokenizer.pad_token_id,  # expect: DEV006
                             dtype=generated.dtype)
            generated = torch.cat([generated, pad], dim=-1)
        labels = inputs["labels"]
        return loss, generated, labels


def main():
    tok = AutoTokenizer.from_pretrained("t5-small")
    model = AutoModelForSeq2SeqLM.from_pretrained("t5-small")
    args = Seq2SeqTrainingArguments("out/sum", per_device_eval_batch_size=8, predict_with_generate=True,
                                    report_to="none")
    from datasets import load_dataset
    ds = load_dataset("xsum", split="validation[:200]")
    ds = ds.map(lambda b: {**tok(["summarize: " + d for d in b["document"]], truncation=True, max_length=256),
                           "labels": tok(b["summary"], truncation=True, max_length=MAX_GEN)["input_ids"]},
                batched=True, remove_columns=ds.column_names)
    trainer = PaddedGenerationTrainer(model=model, args=args, eval_dataset=ds, tokenizer=tok)
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
