"""Entry point: python run_train.py"""
from torch.utils.data import DataLoader

from speechctc.config import ALPHABET, TrainConfig
from speechctc.data import collate, synthetic_corpus
from speechctc.model import Recognizer
from speechctc.trainer import Trainer


def main():
    cfg = TrainConfig()
    loader = DataLoader(synthetic_corpus(n_mels=cfg.n_mels), batch_size=cfg.batch_size, shuffle=True, collate_fn=collate)
    trainer = Trainer(Recognizer(cfg.n_mels, cfg.hidden, len(ALPHABET)), cfg)
    trainer.fit(loader)
    print(trainer.transcribe(next(iter(loader)))[:3])


if __name__ == "__main__":
    main()
