"""Fit the graph regressor."""
import lightning as L

from config import Settings
from data import make_loader
from model import GraphRegressor


def main():
    s = Settings()
    model = GraphRegressor(hidden=s.hidden, layers=s.layers, lr=s.lr)
    trainer = L.Trainer(max_epochs=s.max_epochs, accelerator="auto", devices=s.devices, logger=False)
    trainer.fit(model, make_loader("train", s.batch_size), make_loader("val", s.batch_size))


if __name__ == "__main__":
    main()
