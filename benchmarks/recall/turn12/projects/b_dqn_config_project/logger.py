"""Light-weight console logger for Q-value statistics and episode returns."""
import time

import numpy as np


class TrainLogger:
    def __init__(self, log_every=250):
        self.log_every = log_every
        self.q_history = []
        self.returns = []
        self.start = time.time()

    def log_q(self, step, q_values):
        q = q_values.detach().numpy()  # expect: DEV011
        self.q_history.append((step, float(q.mean()), float(q.max())))

    def log_episode(self, episode_return):
        self.returns.append(episode_return)

    def maybe_print(self, step, eps, loss=None):
        if step % self.log_every:
            return
        recent = np.mean(self.returns[-20:]) if self.returns else float("nan")
        q_mean = self.q_history[-1][1] if self.q_history else float("nan")
        loss_txt = f"{loss:.4f}" if loss is not None else "-"
        print(f"[{time.time() - self.start:6.1f}s] step {step:5d} eps {eps:.2f} "
              f"return {recent:6.3f} q {q_mean:6.3f} loss {loss_txt}")

    def save_csv(self, path):
        with open(path, "w") as fh:
            fh.write("step,q_mean,q_max\n")
            for step, q_mean, q_max in self.q_history:
                fh.write(f"{step},{q_mean:.5f},{q_max:.5f}\n")
        return path

    def summary(self):
        if not self.returns:
            return "no finished episodes"
        return f"{len(self.returns)} episodes, last-20 mean return {np.mean(self.returns[-20:]):.3f}"
