import lightning as L

from callbacks import AUCReport
from data import TabularData
from model import DefaultRiskModel


def main():
    data = TabularData()
    model = DefaultRiskModel(n_features=16, pos_weight=data.positive_weight())
    trainer = L.Trainer(max_epochs=3, accelerator="auto", devices=1, callbacks=[AUCReport()])
    trainer.fit(model, datamodule=data)


if __name__ == "__main__":
    main()
